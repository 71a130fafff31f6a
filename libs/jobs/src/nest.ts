// The jobs context's Nest entry (@ledger/jobs/nest): its module and what the ledger wires with Nest. The
// Nest-free face is ./index (@ledger/jobs).
export * from './application/job.reader';
export * from './application/jobs.module';
export * from './application/record-job-result/record-job-result.handler';
export * from './application/dispatch-job/dispatch-job.handler';
export * from './application/request-job/request-job.handler';
