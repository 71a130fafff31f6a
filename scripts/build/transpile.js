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
const ts = require('typescript');

/**
 * SWC's options for tsconfig's compiler options, or an error naming the
 * option this build does not follow (so a tsconfig change cannot silently
 * diverge from what `tsc` would emit).
 * @param {import('typescript').CompilerOptions} options
 */
function swcOptions(options) {
  if (options.module !== ts.ModuleKind.CommonJS) throw new Error('the build emits CommonJS only; tsconfig "module" must be "commonjs"');
  const target = ts.ScriptTarget[options.target ?? ts.ScriptTarget.ES5].toLowerCase();
  return {
    jsc: {
      parser: { syntax: 'typescript', decorators: Boolean(options.experimentalDecorators) },
      transform: {
        legacyDecorator: Boolean(options.experimentalDecorators),
        // Nest's dependency injection reads the constructor parameter types from this metadata.
        decoratorMetadata: Boolean(options.emitDecoratorMetadata),
        useDefineForClassFields: options.useDefineForClassFields ?? (options.target ?? 0) >= ts.ScriptTarget.ES2022,
      },
      target,
      // tsconfig's path aliases (@ledger/…) become relative requires, so compiled code runs without a resolver hook.
      baseUrl: options.baseUrl,
      paths: options.paths ?? {},
    },
    module: { type: 'commonjs' },
    sourceMaps: Boolean(options.sourceMap),
    inlineSourcesContent: false,
  };
}

/** dist/<source without .ts>.js */
const outputOf = (dist, source) => path.join(dist, source.replace(/\.(ts|tsx|mts|cts)$/, '.js'));

/** Writes through a temporary file, so a process starting meanwhile reads the old file or the new one, never half of one. */
function writeAtomically(file, text) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}

/** Compiles `sources` (paths relative to root) into dist, in parallel on libuv's threads. */
async function transpile(root, dist, sources, compilerOptions) {
  const options = swcOptions(compilerOptions);
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

module.exports = { outputOf, swcOptions, transpile };
