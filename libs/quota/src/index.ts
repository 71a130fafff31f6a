// The quota context's public face. It loads no Nest, so the agent and the projections can import it; the Nest
// module and what Nest injects are in ./nest (@ledger/quota/nest). See docs/architecture.md, "A context's two faces".
export * from './domain/quota.errors';
export * from './domain/quota-project';
export * from './domain/quota-resources';
export * from './domain/quota.events';
export * from './domain/quota.commands';
export * from './domain/quota.state';
export * from './domain/quota.decider';
export * from './domain/quota-what-if';
export * from './application/set-quota-limits/set-quota-limits.command';
export * from './application/reserve-quota/reserve-quota.command';
export * from './application/release-quota/release-quota.command';
export * from './application/quota.reader';
export * from './application/quota.tokens';
