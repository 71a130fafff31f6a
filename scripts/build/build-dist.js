// Compiles into dist/ what changed since the last build (everything the first
// time, or when the compiler options or the build itself changed), deletes
// the outputs of deleted sources and records what it did in the build stamp.
// `npm run build` and `node scripts/run.js --build …` run it. TypeScript and
// SWC are loaded only when the stamp check finds something to compile, so an
// up-to-date call costs the check alone.
// See docs/architecture.md, "Build".
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { changedInput, listTypeScript, readStamp, sameSignature, signature, staleness, writeStamp } = require('./build-stamp');

const ROOT = path.resolve(__dirname, '..', '..');
const CONFIG = 'tsconfig.build.json';
/**
 * Files whose change recompiles everything: the compiler options (relative
 * to the root), this build's own code and the compilers' versions (absolute).
 */
const inputs = () => [
  'tsconfig.json',
  CONFIG,
  ...['build-dist.js', 'build-sources.js', 'build-stamp.js', 'transpile.js'].map((file) => path.join(__dirname, file)),
  require.resolve('@swc/core/package.json'),
  require.resolve('typescript/package.json'),
];

/** Builds if needed; returns what it did, for the progress line, or null when dist/ was up to date. */
async function buildDist({ root = ROOT, clean = false } = {}) {
  const dist = path.join(root, 'dist');
  const reason = clean ? '--clean' : staleness(root, dist);
  if (reason === null) return null;
  const started = performance.now();
  const { buildSources } = require('./build-sources');
  const { outputOf, transpile } = require('./transpile');
  const { sources, roots, options } = buildSources(root, CONFIG);
  // Signatures are taken before compiling: a file saved during the build is older in the stamp than on disk, so the next check compiles it again.
  const inputSignatures = Object.fromEntries(inputs().map((input) => [input, signature(path.resolve(root, input))]));
  const signatures = Object.fromEntries(sources.map((source) => [source, signature(path.join(root, source))]));
  const compiled = new Set(sources);
  const ignored = listTypeScript(root, roots).filter((file) => !compiled.has(file));
  const previous = clean ? null : readStamp(dist);
  const full = previous === null || changedInput(root, previous) !== null;
  const toCompile = full ? sources : sources.filter((source) => !sameSignature(previous.sources[source] ?? null, signatures[source]));
  await transpile(root, dist, toCompile, options);
  const removed = removeOrphans(dist, new Set(sources.map((source) => outputOf(dist, source))), roots);
  writeStamp(dist, { inputs: inputSignatures, roots, sources: signatures, ignored });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  return `build: ${reason}: compiled ${toCompile.length} of ${sources.length} files${removed > 0 ? `, removed ${removed} stale outputs` : ''} in ${seconds} s`;
}

/** Deletes compiled files under dist/ whose source is gone (or no longer built), and tsc's leftovers; returns how many. */
function removeOrphans(dist, outputs, roots) {
  let removed = 0;
  const sweep = (folder) => {
    if (!fs.existsSync(folder)) return;
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        sweep(file);
      } else if (/\.js(\.map)?$/.test(entry.name) && !outputs.has(file.replace(/\.map$/, ''))) {
        fs.rmSync(file);
        removed++;
      }
    }
  };
  for (const folder of roots) sweep(path.join(dist, folder));
  fs.rmSync(path.join(dist, '.tsbuildinfo'), { force: true });
  return removed;
}

module.exports = { buildDist };
