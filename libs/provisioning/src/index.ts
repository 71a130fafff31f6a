// The provisioning context's public face. It loads no Nest, so the agent and the projections can import it; the Nest
// module and what Nest injects are in ./nest (@ledger/provisioning/nest). See docs/architecture.md, "A context's two faces".
export * from './application/provisioning.ports';
export * from './application/provision-host/provision-workflow';
export * from './application/provision-host/provision-host.command';
