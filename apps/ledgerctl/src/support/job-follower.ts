import type { JobView } from '@ledger/projections/jobs';
import { CliError } from './cli-error';
import type { LedgerApiClient } from './ledger-api-client';

/** The first poll comes soon (most device jobs take well under a second), later ones back off to MAX_POLL_MS. */
const FIRST_POLL_MS = 200;
const MAX_POLL_MS = 3000;
const BACKOFF_FACTOR = 1.5;
/**
 * The ledger fails a job with JOB.TIMED_OUT once its timeout has passed; its
 * sweeper does so within moments. Waiting this much longer than the timeout
 * means nobody on the ledger's side is sweeping (no processors role running).
 */
export const SWEEPER_GRACE_MS = 30_000;

/** What `POST /api/v1/hosts/{hostname}/jobs` answered. */
export interface RequestedJob {
  readonly jobId: string;
  /** Global position of the JobRequested: reads wait for the projections to reach it. */
  readonly position: number;
}

export interface FollowJobOptions {
  /** Called with the job after every poll (progress). */
  readonly onPoll?: (job: JobView) => void;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

export const isFinished = (job: JobView): boolean => job.state === 'completed' || job.state === 'failed';

/**
 * Polls `GET /api/v1/jobs/{jobId}` with backoff until the job is completed
 * or failed (a timeout is a failure the ledger records), and resolves to
 * it. The deadline is counted on this machine's clock from the first poll,
 * so clock skew between the CLI and the ledger does not matter.
 */
export async function followJob(client: Pick<LedgerApiClient, 'request'>, requested: RequestedJob, options: FollowJobOptions = {}): Promise<JobView> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const started = now();
  const headers = { 'x-ledger-min-position': String(requested.position) };
  let pollMs = FIRST_POLL_MS;
  let lastState: string | undefined;
  for (;;) {
    const job = await client.request<JobView>('GET', `/api/v1/jobs/${encodeURIComponent(requested.jobId)}`, undefined, { headers });
    options.onPoll?.(job);
    if (isFinished(job)) return job;
    if (now() - started > job.timeoutSeconds * 1000 + SWEEPER_GRACE_MS) {
      throw new CliError(
        `job ${job.jobId} is still ${job.state} ${SWEEPER_GRACE_MS / 1000} s past its ${job.timeoutSeconds} s timeout: ` +
          'the ledger is not timing jobs out (is a ledger with the processors role running?)',
        1,
      );
    }
    // A new state is news: the next step (the agent's result after a dispatch) usually follows quickly.
    pollMs = job.state === lastState ? Math.min(pollMs * BACKOFF_FACTOR, MAX_POLL_MS) : FIRST_POLL_MS;
    lastState = job.state;
    await sleep(pollMs);
  }
}
