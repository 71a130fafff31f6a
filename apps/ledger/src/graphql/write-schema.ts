import { writeFileSync } from 'node:fs';
import { printLedgerSchema, SCHEMA_FILE } from './ledger-schema';

/** `npm run graphql:schema`: rewrites schema.graphql on purpose, after a change to the GraphQL types. */
printLedgerSchema().then(
  (sdl) => {
    writeFileSync(SCHEMA_FILE, sdl);
    process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
  },
  (error: Error) => {
    process.stderr.write(`${error.stack ?? error.message}\n`);
    process.exitCode = 1;
  },
);
