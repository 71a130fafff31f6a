// What the build compiles and how, as tsconfig.build.json says: TypeScript
// reads its include/exclude and compiler options, so the build and
// `npm run typecheck` agree on the rules. Loading TypeScript takes about
// 0.4 s, so a build that only recompiles edited files reuses what the
// stamp kept from here instead.
'use strict';
const path = require('node:path');
const ts = require('typescript');

const toPosix = (file) => file.split(path.sep).join('/');

/**
 * The sources to compile, the folders whose new files the build would pick
 * up, and SWC's options for tsconfig's compiler options.
 * @returns {{ sources: string[], roots: string[], swc: object }}
 */
function buildSources(root, configFile) {
  const parsed = parsedConfig(root, configFile);
  const relative = (file) => toPosix(path.relative(root, file));
  return {
    sources: parsed.fileNames.filter((file) => !file.endsWith('.d.ts')).map(relative),
    roots: Object.keys(parsed.wildcardDirectories ?? {}).map(relative),
    swc: swcOptions(parsed.options),
  };
}

/** SWC's options for a tsconfig: what the build compiles with, and Jest's transformer too (jest-transform.js). */
function swcOptionsOf(root, configFile) {
  return swcOptions(parsedConfig(root, configFile).options);
}

function parsedConfig(root, configFile) {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, configFile), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(`${configFile}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    },
  });
  if (parsed.errors.length > 0) {
    throw new Error(`${configFile}: ${parsed.errors.map((error) => ts.flattenDiagnosticMessageText(error.messageText, '\n')).join('; ')}`);
  }
  return parsed;
}

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

module.exports = { buildSources, swcOptionsOf };
