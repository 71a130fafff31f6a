// The jobs context's public face. It loads no Nest, so the agent and the projections can import it; the Nest
// module and what Nest injects are in ./nest (@ledger/jobs/nest). See docs/architecture.md, "A context's two faces".
export * from './domain/job-kinds';
export * from './domain/job-params';
export * from './domain/job.errors';
export * from './domain/job.events';
export * from './domain/job.commands';
export * from './domain/job.state';
export * from './domain/job.decider';
export * from './application/agent-presence.port';
export * from './application/requested-job';
export * from './application/job-requested.notice';
export * from './application/request-job/request-job.command';
export * from './application/request-job/waiting-polls.port';
export * from './application/request-program-job/request-program-job.command';
export * from './application/dispatch-job/job-offer';
export * from './application/dispatch-job/dispatch-job.command';
export * from './application/record-job-result/record-job-result.command';
export * from './application/record-job-result/job-result-facts.port';
export * from './application/time-out-job/time-out-job.command';
