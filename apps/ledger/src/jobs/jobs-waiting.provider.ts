import type { Provider } from '@nestjs/common';
import { JobQueries } from '@ledger/projections/jobs';
import { JOBS_WAITING, type JobsWaiting } from '../agents/jobs-waiting.port';
import { WaitingJobsSnapshot } from './waiting-jobs-snapshot';

/** How long one read of the jobs waiting answers heartbeats. */
const FRESH_MS = 1000;

/**
 * The heartbeat's `jobsWaiting`: jobs requested for the host and not yet
 * taken, from one read of every host's count a second (WaitingJobsSnapshot)
 * rather than a query per heartbeat: a fleet's heartbeats come by the
 * thousand per second, a replica's jobs waiting are few.
 */
export const jobsWaitingProvider: Provider = {
  provide: JOBS_WAITING,
  inject: [JobQueries],
  useFactory: (queries: JobQueries): JobsWaiting => {
    const snapshot = new WaitingJobsSnapshot(() => queries.countWaitingPerHost(), FRESH_MS);
    return (hostname) => snapshot.waiting(hostname);
  },
};
