// The allocation context's public face. It loads no Nest, so the agent and the projections can import it; the Nest
// module and what Nest injects are in ./nest (@ledger/allocation/nest). See docs/architecture.md, "A context's two faces".
export * from './domain/device-profile.errors';
export * from './domain/device-profile.events';
export * from './domain/device-profile.streams';
export * from './domain/device-profile-input';
export * from './application/device-profiles/create-device-profile.command';
export * from './application/device-profiles/delete-device-profiles.command';
export * from './domain/arq.events';
export * from './domain/arq.state';
export * from './domain/arq.errors';
export * from './domain/arq.decider';
export * from './domain/attach-handle-info';
export * from './domain/fpga-id';
export * from './domain/device-shell';
export * from './domain/bind-program';
export * from './application/arqs/allocation-directory.port';
export type * from './application/arqs/arq-visibility';
export * from './application/arqs/create-arqs/create-arqs.command';
export * from './application/arqs/bind-arqs/bind-arqs.command';
export * from './application/arqs/bind-arqs/arq-patch';
export * from './application/arqs/bind-arqs/arq-patch.http';
export * from './application/arqs/unbind-arqs/unbind-arqs.command';
export * from './application/arqs/delete-arqs/delete-arqs.command';
export * from './application/arqs/bind-arqs/bind-workflow';
export * from './application/arqs/bind-arqs/bind-workflow.port';
export * from './domain/nova-notice';
export * from './application/nova/nova-events.port';
export * from './infrastructure/nova/http-nova-events';
