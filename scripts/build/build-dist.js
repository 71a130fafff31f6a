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
const { ASSET_FOLDERS, changedInput, listAssets, listTypeScript, readStamp, sameSignature, signature, staleness, writeStamp } = require('./build-stamp');

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
  const previous = clean ? null : readStamp(dist);
  const plan = (previous && editsOnly(root, previous)) ?? fromConfig(root, previous);
  const { outputOf, transpile } = require('./transpile');
  await transpile(root, dist, plan.toCompile, plan.stamp.swc);
  // The copied assets' scripts are outputs too, not orphans.
  const outputs = new Set([...Object.keys(plan.stamp.sources).map((source) => outputOf(dist, source)), ...listAssets(root).map((file) => path.join(dist, file))]);
  const removed = plan.sweep ? removeOrphans(dist, outputs, plan.stamp.roots) : 0;
  writeStamp(dist, { ...plan.stamp, assets: copyAssets(root, dist) });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const total = Object.keys(plan.stamp.sources).length;
  return `build: ${reason}: compiled ${plan.toCompile.length} of ${total} files${removed > 0 ? `, removed ${removed} stale outputs` : ''} in ${seconds} s`;
}

/**
 * When the only change since the last build is edited sources (no new or
 * deleted file, no input changed), the stamp already holds the file list
 * and SWC's options: recompile the edited files without loading TypeScript.
 * Otherwise null.
 */
function editsOnly(root, previous) {
  if (changedInput(root, previous) !== null) return null;
  const known = new Set([...Object.keys(previous.sources), ...previous.ignored]);
  const listed = listTypeScript(root, previous.roots);
  if (listed.some((file) => !known.has(file))) return null;
  const present = new Set(listed);
  if (Object.keys(previous.sources).some((source) => !present.has(source))) return null;
  const signatures = signaturesOf(root, Object.keys(previous.sources));
  return {
    toCompile: Object.keys(signatures).filter((source) => !sameSignature(previous.sources[source], signatures[source])),
    stamp: { ...previous, sources: signatures, ignored: previous.ignored.filter((file) => present.has(file)) },
    sweep: false,
  };
}

/** The file list and options from tsconfig.build.json (TypeScript loaded): everything when there is no stamp or an input changed, else what changed. */
function fromConfig(root, previous) {
  const { buildSources } = require('./build-sources');
  const { sources, roots, swc } = buildSources(root, CONFIG);
  // Signatures are taken before compiling: a file saved during the build is older in the stamp than on disk, so the next check compiles it again.
  const inputSignatures = Object.fromEntries(inputs().map((input) => [input, signature(path.resolve(root, input))]));
  const signatures = signaturesOf(root, sources);
  const compiled = new Set(sources);
  const ignored = listTypeScript(root, roots).filter((file) => !compiled.has(file));
  const full = previous === null || changedInput(root, previous) !== null;
  return {
    toCompile: full ? sources : sources.filter((source) => !sameSignature(previous.sources[source] ?? null, signatures[source])),
    stamp: { inputs: inputSignatures, roots, sources: signatures, ignored, swc },
    sweep: true,
  };
}

/**
 * Copies the asset folders into dist/ afresh (a few dozen small files: cheaper
 * than tracking which changed) and returns their signatures for the stamp.
 */
function copyAssets(root, dist) {
  const signatures = signaturesOf(root, listAssets(root));
  for (const folder of ASSET_FOLDERS) {
    fs.rmSync(path.join(dist, folder), { recursive: true, force: true });
    if (fs.existsSync(path.join(root, folder))) fs.cpSync(path.join(root, folder), path.join(dist, folder), { recursive: true });
  }
  return signatures;
}

const signaturesOf = (root, sources) => Object.fromEntries(sources.map((source) => [source, signature(path.join(root, source))]));

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
