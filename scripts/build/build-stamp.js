// The build's record of what it compiled (dist/.build-stamp.json), and the
// check that compares it with the tree. The check runs before every
// `npm start`, `npm run ledgerctl`, … so it loads nothing but fs and path: it
// stats the files the stamp names and lists the source folders, nothing more.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const STAMP_FORMAT = 3;
const STAMP_FILE = '.build-stamp.json';
/** Folders copied into dist/ as they are: the web console's pages, styles and browser modules (docs/operations.md, "Console"). */
const ASSET_FOLDERS = ['apps/ledger/console'];

/**
 * @typedef {[number, number]} FileSignature  mtime in ms and size in bytes
 * @typedef {{
 *   format: number,
 *   inputs: Record<string, FileSignature>,
 *   roots: string[],
 *   sources: Record<string, FileSignature>,
 *   ignored: string[],
 *   swc: object,
 *   assets: Record<string, FileSignature>,
 * }} BuildStamp
 *   Paths are relative to the repository root, with forward slashes.
 *   `inputs`: files whose change recompiles everything (tsconfig, relative;
 *   the build's own scripts and the compilers' package.json, absolute). `roots`: the folders tsconfig's
 *   "include" watches. `sources`: every file compiled. `ignored`: the .ts
 *   files under the roots that tsconfig excludes (specs, testing helpers),
 *   so a new file can be told from an excluded one without TypeScript.
 *   `swc`: the transpiler's options derived from tsconfig, reused by a
 *   build that only recompiles edited files. `assets`: the files copied as
 *   they are (the console's pages and scripts, ASSET_FOLDERS).
 */

/** @returns {FileSignature | null} */
function signature(file) {
  try {
    const stat = fs.statSync(file);
    return [stat.mtimeMs, stat.size];
  } catch {
    return null;
  }
}

/** Equal signatures, or both files missing. */
const sameSignature = (a, b) => (a === null || b === null ? a === b : a[0] === b[0] && a[1] === b[1]);

/** @returns {BuildStamp | null} */
function readStamp(dist) {
  try {
    const stamp = JSON.parse(fs.readFileSync(path.join(dist, STAMP_FILE), 'utf8'));
    return stamp.format === STAMP_FORMAT ? stamp : null;
  } catch {
    return null;
  }
}

function writeStamp(dist, stamp) {
  const file = path.join(dist, STAMP_FILE);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify({ format: STAMP_FORMAT, ...stamp }));
  fs.renameSync(`${file}.tmp`, file);
}

/** Every file under the folders that `keep` accepts (node_modules skipped), relative to root. */
function listFiles(root, folders, keep) {
  const found = [];
  const walk = (relative) => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(child);
      } else if (keep(entry.name)) {
        found.push(child);
      }
    }
  };
  for (const folder of folders) if (fs.existsSync(path.join(root, folder))) walk(folder);
  return found;
}

/** Every .ts file under the roots (TypeScript's own extensions), relative to root. */
const listTypeScript = (root, roots) => listFiles(root, roots, (name) => /\.(ts|tsx|mts|cts)$/.test(name));

/** Every file under the asset folders, relative to root. */
const listAssets = (root) => listFiles(root, ASSET_FOLDERS, () => true);

/** Why the copied assets no longer match the tree (one new, changed or deleted), or null. */
function assetStaleness(root, stamp) {
  const unseen = new Set(Object.keys(stamp.assets));
  for (const file of listAssets(root)) {
    if (!unseen.delete(file)) return `${file} is new`;
    if (!sameSignature(signature(path.join(root, file)), stamp.assets[file])) return `${file} changed`;
  }
  const [deleted] = unseen;
  return deleted === undefined ? null : `${deleted} was deleted`;
}

/** The first input whose signature differs from the stamp's, or null. */
function changedInput(root, stamp) {
  return Object.keys(stamp.inputs).find((input) => !sameSignature(signature(path.resolve(root, input)), stamp.inputs[input])) ?? null;
}

/**
 * Why dist/ no longer matches the tree (no stamp; an input changed; sources
 * changed, added or deleted), or null when it does.
 * @returns {string | null}
 */
function staleness(root, dist) {
  const stamp = readStamp(dist);
  if (!stamp) return 'no build stamp in dist/';
  const input = changedInput(root, stamp);
  if (input) return `${input} changed`;
  const ignored = new Set(stamp.ignored);
  const unseen = new Set(Object.keys(stamp.sources));
  for (const file of listTypeScript(root, stamp.roots)) {
    if (ignored.has(file)) continue;
    if (!unseen.delete(file)) return `${file} is new`;
    if (!sameSignature(signature(path.join(root, file)), stamp.sources[file])) return `${file} changed`;
  }
  const [deleted] = unseen;
  return deleted === undefined ? assetStaleness(root, stamp) : `${deleted} was deleted`;
}

module.exports = { ASSET_FOLDERS, changedInput, listAssets, listTypeScript, readStamp, sameSignature, signature, staleness, writeStamp };
