import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateEventContracts } from './event-contracts';

/**
 * Rewrites the contracts package's generated files after an event type changed:
 * `node scripts/run.js --build libs/contracts/generate/main.js` from the repository root.
 */
for (const file of generateEventContracts(process.cwd())) {
  writeFileSync(join(process.cwd(), file.path), file.text);
  process.stdout.write(`wrote ${file.path}\n`);
}
