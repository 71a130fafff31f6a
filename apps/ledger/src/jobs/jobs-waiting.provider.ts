import type { Provider } from '@nestjs/common';
import { JobQueries } from '@ledger/projections/jobs';
import { JOBS_WAITING, type JobsWaiting } from '../agents/jobs-waiting.port';

/** The heartbeat's `jobsWaiting`: jobs requested for the host and not yet taken. */
export const jobsWaitingProvider: Provider = {
  provide: JOBS_WAITING,
  inject: [JobQueries],
  useFactory: (queries: JobQueries): JobsWaiting => (hostname) => queries.countWaiting(hostname),
};
