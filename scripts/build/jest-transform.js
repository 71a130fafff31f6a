// Jest's transformer for the TypeScript sources: the build's own SWC
// compilation (build-sources.js, transpile.js's options), so a test runs the
// code as `npm run build` emits it, and a cold run compiles each file in a
// millisecond instead of building a type-checking program per worker (what
// ts-jest did). Type checking is `npm run typecheck`, part of `npm test`.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const swc = require('@swc/core');
const { swcOptionsOf } = require('./build-sources');

const root = path.resolve(__dirname, '..', '..');
const configFile = 'tsconfig.json';
const options = swcOptionsOf(root, configFile);
// A change of the options or of SWC itself must not reuse Jest's cached output.
const optionsKey = crypto
  .createHash('sha256')
  .update(JSON.stringify(options))
  .update(require('@swc/core/package.json').version)
  .update(fs.readFileSync(__filename))
  .digest('hex');

module.exports = {
  getCacheKey(source, filename) {
    return crypto.createHash('sha256').update(optionsKey).update('\0').update(filename).update('\0').update(source).digest('hex');
  },
  process(source, filename) {
    const { code, map } = swc.transformSync(source, { ...options, filename, sourceMaps: true, inlineSourcesContent: true });
    return { code, map };
  },
};
