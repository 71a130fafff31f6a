// What the build compiles, as tsconfig.build.json says: TypeScript reads its
// include/exclude, so the build and `npm run typecheck` agree on the rules.
'use strict';
const path = require('node:path');
const ts = require('typescript');

const toPosix = (file) => file.split(path.sep).join('/');

/**
 * The sources to compile, the folders whose new files the build would pick
 * up, and the compiler options (paths, target) the transpiler follows.
 * @returns {{ sources: string[], roots: string[], options: import('typescript').CompilerOptions }}
 */
function buildSources(root, configFile) {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, configFile), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(`${configFile}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
    },
  });
  if (parsed.errors.length > 0) {
    throw new Error(`${configFile}: ${parsed.errors.map((error) => ts.flattenDiagnosticMessageText(error.messageText, '\n')).join('; ')}`);
  }
  const relative = (file) => toPosix(path.relative(root, file));
  return {
    sources: parsed.fileNames.filter((file) => !file.endsWith('.d.ts')).map(relative),
    roots: Object.keys(parsed.wildcardDirectories ?? {}).map(relative),
    options: parsed.options,
  };
}

module.exports = { buildSources };
