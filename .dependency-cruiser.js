// The layering of STYLE.md, checked by `npm run lint:deps` (part of `npm test`).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Import cycles make the flow impossible to follow and break initialisation order.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'libs-never-import-apps',
      severity: 'error',
      comment: 'Apps compose libraries; a library never reaches into an app.',
      from: { path: '^(libs|projections)/' },
      to: { path: '^apps/' },
    },
    {
      name: 'libs-never-import-tests',
      severity: 'error',
      from: { path: '^(libs|projections|apps)/', pathNot: '\\.(spec|int-spec|e2e-spec)\\.ts$|/testing/' },
      to: { path: '^test/' },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'domain/ holds deciders and events only: no Nest, no adapters, no I/O modules. (Specs may use the shared test helpers.)',
      from: { path: '/domain/', pathNot: '\\.spec\\.ts$' },
      to: {
        path: '^(node_modules/@nestjs|node_modules/pg|node_modules/better-sqlite3|node_modules/@eventstore|node_modules/kafkajs|node_modules/rxjs)|/(application|infrastructure|adapters)/|^libs/(processing|config|auth)/|^projections/|^apps/',
      },
    },
    {
      name: 'domain-imports-only-its-context-and-the-kernel',
      severity: 'error',
      from: { path: '^libs/([^/]+)/src/domain/', pathNot: '\\.spec\\.ts$' },
      to: {
        pathNot: [
          '^libs/$1/src/domain/',
          '^libs/kernel/',
          '^node_modules/',
          '^(node:)?(crypto|util)$',
        ],
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'contracts-stay-publishable',
      severity: 'error',
      comment: 'libs/contracts is a package for other services: no Nest, no adapters, nothing of the ledger but the events\' own types (docs/kafka.md).',
      from: { path: '^libs/contracts/src/' },
      to: { path: '^(node_modules/|projections/|apps/)|^libs/(?!contracts/|[^/]+/src/domain/[^/]+\\.events\\.ts$)' },
    },
    {
      name: 'kafkajs-only-behind-the-messaging-port',
      severity: 'error',
      comment: 'STYLE.md: everything that calls out goes through a port in a lib; Kafka\'s is libs/messaging.',
      from: { pathNot: '^(libs/messaging/src/infrastructure/|test/bench/)' },
      to: { path: '^node_modules/kafkajs' },
    },
    {
      name: 'public-faces-load-no-nest',
      severity: 'error',
      comment: "A library's index.ts is its Nest-free public face; Nest modules, handlers and runners go in its nest.ts (docs/architecture.md, \"A context's two faces\").",
      from: { path: '^libs/[^/]+/src/index\\.ts$' },
      to: { path: '(^|/)node_modules/@nestjs/', reachable: true },
    },
    {
      name: 'agent-and-projections-never-load-nest',
      severity: 'error',
      comment: 'The agent runs on every host and the projections in every processors replica: neither needs Nest, so they import the libraries by their public faces.',
      from: { path: '^(apps/agent|projections)/', pathNot: '\\.(spec|int-spec)\\.ts$' },
      to: { path: '(^|/)node_modules/@nestjs/', reachable: true },
    },
    {
      name: 'libraries-meet-at-their-public-faces',
      severity: 'error',
      comment:
        "One context's code uses another's only through its Nest-free face (events, commands, ports, errors): never its application internals or its Nest entry. Only a Nest module may import another context's module (from its nest.ts) to compose them. (libs/contracts reads the events' types by path: contracts-stay-publishable.)",
      from: { path: '^libs/([^/]+)/src/', pathNot: '\\.(spec|int-spec)\\.ts$|/testing/|\\.module\\.ts$|^libs/contracts/' },
      to: { path: '^libs/(?!$1/)[^/]+/src/', pathNot: '^libs/[^/]+/src/index\\.ts$' },
    },
    {
      name: 'kernel-depends-on-nothing',
      severity: 'error',
      from: { path: '^libs/kernel/' },
      to: { path: '^(libs/(?!kernel/)|projections/|apps/|node_modules/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|data|test/fixtures)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
