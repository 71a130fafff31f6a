// Preloaded (`node -r`) into a process by test/e2e/nest-free-processes.e2e-spec.ts: when the process exits, writes the
// file of every module in `require.cache` (everything it loaded), one per line, to LEDGER_TEST_REQUIRED_MODULES.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  writeFileSync(process.env.LEDGER_TEST_REQUIRED_MODULES, `${Object.keys(require.cache).join('\n')}\n`);
});
