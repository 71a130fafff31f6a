import { type Command, InvalidArgumentError } from 'commander';
import type { JobView } from '@ledger/projections/jobs';
import { CliError } from '../support/cli-error';
import { followJob, type RequestedJob } from '../support/job-follower';
import { type LedgerApiClient, type LedgerApiOptions, withLedgerApiOptions } from '../support/ledger-api-client';
import { formatJobOutcome } from './job-outcome';
import { JobProgress } from './job-progress';

/** Exit code of a job-driving command whose job the host reported failed (or the ledger timed out). */
export const JOB_FAILED_EXIT_CODE = 3;

/** As the ledger accepts `timeoutSeconds` (docs/agent-protocol.md). */
const MAX_TIMEOUT_SECONDS = 86_400;

export interface JobCommandOptions extends LedgerApiOptions {
  readonly wait?: boolean;
  readonly timeout?: number;
  readonly json?: boolean;
}

export interface RequestedHostJob extends RequestedJob {
  readonly hostname: string;
  readonly kind: string;
}

/**
 * `--wait`, `--timeout`, `--json` and the ledger options. Waiting is opt-in
 * on purpose, also on a terminal: the command then means the same in a
 * script and at a prompt, and without --wait it only records the request
 * and prints the job id.
 */
export function withJobOptions(command: Command): Command {
  return withLedgerApiOptions(
    command
      .allowExcessArguments(false)
      .option('--wait', 'follow the job until it completes or fails (progress on stderr); exit 3 if it failed')
      .option('--timeout <seconds>', "the job's timeout, 1–86400: the ledger fails the job if no result came by then (default per kind)", parseTimeoutSeconds)
      .option('--json', 'print JSON: the request, or with --wait the finished job'),
  );
}

/** `--timeout`: a whole number of seconds the ledger accepts; anything else is a usage error (exit 2). */
export function parseTimeoutSeconds(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > MAX_TIMEOUT_SECONDS) {
    throw new InvalidArgumentError(`expected a whole number of seconds from 1 to ${MAX_TIMEOUT_SECONDS}`);
  }
  return Number(value);
}

/** `POST /api/v1/hosts/{hostname}/jobs`: the ledger records jobs.JobRequested and answers the job id. */
export async function requestJob(
  client: Pick<LedgerApiClient, 'request'>,
  hostname: string,
  kind: string,
  params: Record<string, unknown>,
  timeoutSeconds?: number,
): Promise<RequestedHostJob> {
  const body = { kind, params, ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }) };
  const requested = await client.request<RequestedJob>('POST', `/api/v1/hosts/${encodeURIComponent(hostname)}/jobs`, body);
  return { jobId: requested.jobId, position: requested.position, hostname, kind };
}

/**
 * Without --wait: prints the job id (or the request as JSON). With --wait:
 * follows the job, runs `settle` on the finished job (work that must be
 * visible before the command returns), prints the outcome, and fails with
 * exit code 3 when the job failed.
 */
export async function reportJob(
  client: Pick<LedgerApiClient, 'request'>,
  requested: RequestedHostJob,
  options: JobCommandOptions,
  settle?: (job: JobView) => Promise<void>,
): Promise<void> {
  if (!options.wait) {
    process.stdout.write(options.json ? `${JSON.stringify(requested)}\n` : `${requested.jobId}\n`);
    return;
  }
  const progress = new JobProgress();
  const job = await followJob(client, requested, { onPoll: (view) => progress.seen(view) });
  await settle?.(job);
  process.stdout.write(options.json ? `${JSON.stringify(job)}\n` : formatJobOutcome(job));
  if (job.state === 'failed') throw jobFailed(job);
}

export const jobFailed = (job: JobView): CliError =>
  new CliError(`job ${job.jobId} (${job.kind}) failed on ${job.hostname}: ${job.code}: ${job.reason}`, JOB_FAILED_EXIT_CODE);
