// The placement context's public face. It loads no Nest, so the agent and the projections can import it; the Nest
// module and what Nest injects are in ./nest (@ledger/placement/nest). See docs/architecture.md, "A context's two faces".
export * from './domain/desired-placement';
export * from './domain/desired-provider';
export * from './domain/placement-traits';
export * from './application/host-sync-status';
export * from './application/placement-reconciler';
export * from './application/placement-sync-queries';
export * from './infrastructure/http-placement-api';
