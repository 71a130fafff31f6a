import { readFileSync } from 'node:fs';
import { printLedgerSchema, SCHEMA_FILE } from './ledger-schema';

describe('the committed GraphQL schema', () => {
  it('is the one the resolvers build (after an intended change, run `npm run graphql:schema` and commit the file)', async () => {
    expect(await printLedgerSchema()).toBe(readFileSync(SCHEMA_FILE, 'utf8'));
  });
});
