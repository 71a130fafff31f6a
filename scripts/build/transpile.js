// Compiles TypeScript sources to dist/ one file at a time with SWC: no type
// checking (that is `npm run typecheck`, part of `npm test`), so a file's
// output depends on that file alone and the build can redo only what changed.
// tsconfig.json's `isolatedModules` makes the type checker reject what
// per-file compilation cannot do (const enums, re-exported types).
// See docs/architecture.md, "Build".
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');

/** dist/<source without .ts>.js */
const outputOf = (dist, source) => path.join(dist, source.replace(/\.(ts|tsx|mts|cts)$/, '.js'));

/** Writes through a temporary file, so a process starting meanwhile reads the old file or the new one, never half of one. */
function writeAtomically(file, text) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}

/** Compiles `sources` (paths relative to root) into dist with SWC's `options` (see build-sources.js), in parallel on libuv's threads. */
async function transpile(root, dist, sources, options) {
  await Promise.all(
    sources.map(async (source) => {
      const input = path.join(root, source);
      const output = outputOf(dist, source);
      const result = await swc.transformFile(input, {
        ...options,
        filename: input,
        sourceFileName: path.relative(path.dirname(output), input).split(path.sep).join('/'),
      });
      fs.mkdirSync(path.dirname(output), { recursive: true });
      if (result.map) {
        writeAtomically(`${output}.map`, result.map);
        writeAtomically(output, `${result.code}\n//# sourceMappingURL=${path.basename(output)}.map\n`);
      } else {
        writeAtomically(output, result.code);
      }
    }),
  );
}

module.exports = { outputOf, transpile };
