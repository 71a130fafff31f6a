// Preloaded (`node -r`) into a ledger process by test/e2e/deployment-files.e2e-spec.ts: appends the directory of every
// npm package the process loads a file from, one per line, to LEDGER_TEST_LOADED_PACKAGES, as it is first loaded (a
// process stopped by a signal has no exit event to write them at).
const Module = require('node:module');
const { appendFileSync } = require('node:fs');

const packages = new Set();
const resolve = Module._resolveFilename;
Module._resolveFilename = function recordPackage(...args) {
  const file = resolve.apply(this, args);
  const match = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file);
  if (match && !packages.has(match[1])) {
    packages.add(match[1]);
    appendFileSync(process.env.LEDGER_TEST_LOADED_PACKAGES, `${match[1]}\n`);
  }
  return file;
};
