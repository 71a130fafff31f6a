#!/usr/bin/env node
// `npm run build`: compiles into dist/ what changed since the last build, and
// nothing when dist/ is up to date (the check stats the sources and loads
// neither TypeScript nor SWC).
//   node scripts/build.js            compile what changed (everything the first time)
//   node scripts/build.js --clean    compile everything
// The progress line goes to stderr. Exit 1 when a file does not compile.
// See docs/architecture.md, "Build".
'use strict';
const { buildDist } = require('./build/build-dist');

buildDist({ clean: process.argv.includes('--clean') }).then(
  (done) => {
    if (done) process.stderr.write(`${done}\n`);
  },
  (error) => {
    process.stderr.write(`build: ${error?.message ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
