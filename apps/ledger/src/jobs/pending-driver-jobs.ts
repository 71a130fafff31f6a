import { isDriverJobKind } from '@ledger/jobs';
import { type JobQueries, MAX_JOB_PAGE } from '@ledger/projections/jobs';

/** A driver job of the host not finished yet: what the drivers list will show once it is. */
export interface PendingDriverJob {
  readonly jobId: string;
  readonly kind: string;
  readonly driver: string;
  readonly version: string | null;
  /** `requested` (waiting for the agent) or `dispatched` (running on the host). */
  readonly state: string;
  readonly requestedAt: string;
}

/**
 * The host's unfinished driver jobs, oldest first. The drivers list shows
 * only finished jobs' facts, so without these an empty list right after a
 * request would read as "nothing installed" rather than "not done yet".
 */
export async function pendingDriverJobs(queries: JobQueries, hostname: string): Promise<PendingDriverJob[]> {
  const pages = await Promise.all(['requested', 'dispatched'].map((state) => queries.listJobs({ hostname, state, limit: MAX_JOB_PAGE })));
  return pages
    .flatMap((page) => page.items)
    .filter((job) => isDriverJobKind(job.kind))
    .sort((a, b) => a.position - b.position)
    .map((job) => ({
      jobId: job.jobId,
      kind: job.kind,
      driver: String(job.params.driver),
      version: typeof job.params.version === 'string' ? job.params.version : null,
      state: job.state,
      requestedAt: job.requestedAt,
    }));
}
