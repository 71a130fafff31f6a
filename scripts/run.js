#!/usr/bin/env node
// Runs a compiled entry point from dist/, so `npm start`, `npm run ledgerctl`
// and `npm run bench` need no ts-node. Tests use it too, to start a real
// ledger process: `run.js ledger`, or any compiled file by its path under dist/.
//   node scripts/run.js [--build] <entry> [args…]
// --build (what the npm scripts pass): first compile what changed since the
// last build, in this process. When dist/ is up to date that is a stat of each
// source and nothing more; a separate `pre*` script would cost another Node
// start-up on every call. See docs/architecture.md, "Build".
// The entry runs in this process, not a child: signals reach it directly, and
// under npm it stops when npm's process goes (stop-with-npm.js).
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const { stopWithNpm } = require('./stop-with-npm');

const entries = {
  ledger: 'apps/ledger/src/main.js',
  ledgerctl: 'apps/ledgerctl/src/main.js',
  bench: 'test/bench/main.js',
  agent: 'apps/agent/src/main.js',
  simulate: 'apps/agent/src/simulate/main.js',
  'kafka-consumer-example': 'apps/kafka-consumer-example/src/main.js',
};
const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');

async function main(argv) {
  const build = argv[0] === '--build';
  const [name, ...rest] = build ? argv.slice(1) : argv;
  const entry = entries[name] ?? (name && name.endsWith('.js') ? name : undefined);
  if (!entry) {
    console.error(`usage: run.js [--build] <${Object.keys(entries).join('|')}|path/under/dist.js> [args…]`);
    return 2;
  }
  if (build) {
    const done = await require('./build/build-dist').buildDist();
    if (done) process.stderr.write(`${done}\n`);
  }
  const file = path.join(dist, entry);
  // Without the stamp, dist/ holds another compiler's output (e.g. tsc's, whose requires keep the @ledger/… aliases).
  if (!fs.existsSync(file) || !fs.existsSync(path.join(dist, '.build-stamp.json'))) {
    console.error(`${file} is missing or was not compiled by "npm run build": run "npm run build" first.`);
    return 2;
  }
  stopWithNpm();
  // The compiled file sees its own path and its arguments, as if Node had started it.
  process.argv = [process.argv[0], file, ...rest];
  require(file);
  return undefined;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`run.js: ${error?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
