// One Jest run for every level: unit (*.spec.ts), real-service (*.int-spec.ts)
// and whole-app (test/e2e/*.e2e-spec.ts). Type checking is `npm run typecheck`;
// the sources are compiled as the build compiles them (SWC, one file at a time:
// scripts/build/jest-transform.js).
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.json');

module.exports = {
  rootDir: __dirname,
  // Node's, plus the logs of the ledgers and agents a test started, shown only when it fails (a passing test prints nothing).
  testEnvironment: '<rootDir>/test/support/failure-logs.environment.ts',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/projections', '<rootDir>/scripts', '<rootDir>/test'],
  testRegex: '\\.(spec|int-spec|e2e-spec)\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': '<rootDir>/scripts/build/jest-transform.js',
    // content-disposition 3 is ES-module only. Node 20.19+ requires it natively (the built app), Jest 30 on
    // Node 20 cannot; Mercurius loads it through @fastify/static, so the in-process app needs it compiled to CommonJS.
    '/node_modules/content-disposition/.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs' }, diagnostics: false }],
    // Mercurius's document cache loads quick-lru (ES module only) with `import()`, which Jest cannot run without
    // --experimental-vm-modules: both are compiled to CommonJS, the import() to a require().
    '/node_modules/(mercurius/index|quick-lru/index)\\.js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs' }, diagnostics: false }],
  },
  transformIgnorePatterns: ['/node_modules/(?!content-disposition/|mercurius/index\\.js|quick-lru/)'],
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' }),
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
