import type { Provider } from '@nestjs/common';
import { GroupCommit } from '@ledger/kernel';
import { JobQueries } from '@ledger/projections/jobs';
import { JOBS_WAITING, type JobsWaiting } from '../agents/jobs-waiting.port';

/** Hosts per query at most: one IN list stays well within both stores' limits on parameters. */
const HOSTS_PER_QUERY = 500;

/**
 * The heartbeat's `jobsWaiting`: jobs requested for the host and not yet
 * taken. Heartbeats that arrive in the same turn of the event loop share
 * one query (GroupCommit's batching, read-only here), rather than a query
 * each: a fleet's heartbeats come by the hundred per second.
 */
export const jobsWaitingProvider: Provider = {
  provide: JOBS_WAITING,
  inject: [JobQueries],
  useFactory: (queries: JobQueries): JobsWaiting => {
    const lookups = new GroupCommit<string, number>(async (hostnames) => {
      const counts = await queries.countWaitingByHost([...new Set(hostnames)]);
      return hostnames.map((hostname) => ({ result: counts.get(hostname) ?? 0 }));
    }, HOSTS_PER_QUERY);
    return (hostname) => lookups.submit(hostname);
  },
};
