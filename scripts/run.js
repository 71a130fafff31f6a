#!/usr/bin/env node
// Runs a compiled entry point from dist/ with the tsconfig path aliases resolved
// against dist/, so `npm start`, `npm run ledgerctl` and `npm run bench` need no
// ts-node. Tests use it too, to start a real ledger process: `run.js ledger`,
// or any compiled file by its path under dist/.
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const tsconfigPaths = require('tsconfig-paths');

const entries = {
  ledger: 'apps/ledger/src/main.js',
  ledgerctl: 'apps/ledgerctl/src/main.js',
  bench: 'test/bench/main.js',
  agent: 'apps/agent/src/main.js',
  simulate: 'apps/agent/src/simulate/main.js',
};
const [name, ...rest] = process.argv.slice(2);
const entry = entries[name] ?? (name && name.endsWith('.js') ? name : undefined);
if (!entry) {
  console.error(`usage: run.js <${Object.keys(entries).join('|')}|path/under/dist.js> [args…]`);
  process.exit(2);
}
const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');
const file = path.join(dist, entry);
if (!fs.existsSync(file)) {
  console.error(`${file} is missing: run "npm run build" first.`);
  process.exit(2);
}
const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.json'), 'utf8'));
tsconfigPaths.register({ baseUrl: dist, paths: compilerOptions.paths });
process.argv = [process.argv[0], file, ...rest];
require(file);
