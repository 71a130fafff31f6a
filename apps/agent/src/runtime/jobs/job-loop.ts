import type { AgentLogger } from '../agent-logger';
import { backoffMs } from '../backoff';
import { isLedgerCallError } from '../ledger-call.error';
import type { LedgerClient } from '../ledger-client';
import type { JobOffer, JobResult } from '../protocol';
import { ResultOutbox } from '../result-outbox';
import { Pause, type Timers } from '../timers';

/** How long one long poll waits for a job (the ledger allows up to 60). */
export const JOB_POLL_WAIT_SECONDS = 25;

export interface JobLoopOptions {
  readonly client: Pick<LedgerClient, 'nextJobs'>;
  readonly runner: { run(job: JobOffer): Promise<JobResult> };
  readonly outbox: ResultOutbox;
  /** A job's result, being saved (`saved`): send it now. */
  readonly deliver: (jobId: string, result: JobResult, saved: Promise<void>) => void;
  /** A result saved earlier waits: deliver it. */
  readonly onResult: () => void;
  readonly timers: Timers;
  readonly logger: AgentLogger;
  readonly waitSeconds?: number;
  readonly random?: () => number;
}

/**
 * Asks the ledger for work over an outbound long poll and carries the jobs
 * out one at a time, in the order offered. Each result is sent at once
 * while it is saved to the outbox, before anything else the agent does
 * after the job (the next poll waits for the save), so it survives an
 * outage or a restart; a job offered again whose result is already saved
 * (the agent restarted before delivering it) is not run twice. Stopping lets the job in hand
 * finish and its result be saved; jobs taken but not started are offered
 * again by the ledger after a restart.
 */
export class JobLoop {
  private failures = 0;
  private pause?: Pause;

  constructor(private readonly options: JobLoopOptions) {}

  /** Poll now: the ledger said jobs are waiting (cuts a backoff short). */
  pollNow(): void {
    this.pause?.wake();
  }

  async run(stop: AbortSignal): Promise<void> {
    const { client, logger } = this.options;
    this.pause = new Pause(this.options.timers, stop);
    while (!stop.aborted) {
      let jobs: readonly JobOffer[];
      try {
        jobs = await client.nextJobs(this.options.waitSeconds ?? JOB_POLL_WAIT_SECONDS, stop);
        if (this.failures > 0) logger.log(`jobs: polling again after ${this.failures} failed attempt(s)`);
        this.failures = 0;
      } catch (error) {
        if (stop.aborted) break;
        if (!isLedgerCallError(error)) throw error;
        this.failures++;
        if (this.failures === 1) logger.warn(`jobs: cannot poll (${error.message}); retrying with backoff`);
        await this.pause.for(backoffMs(this.failures, this.options.random));
        continue;
      }
      for (const job of jobs) {
        if (stop.aborted) break;
        await this.take(job);
      }
    }
  }

  private async take(job: JobOffer): Promise<void> {
    const { outbox, logger } = this.options;
    if (!ResultOutbox.isStorableJobId(job.jobId)) {
      logger.error(`jobs: refusing job with unusable id ${JSON.stringify(job.jobId)}`);
      return;
    }
    if (outbox.has(job.jobId)) {
      logger.log(`job ${job.jobId}: offered again, its result is already waiting to be delivered`);
      this.options.onResult();
      return;
    }
    if (outbox.wasDelivered(job.jobId)) {
      logger.log(`job ${job.jobId}: offered again, its result was delivered already; not run again`);
      return;
    }
    const result = await this.options.runner.run(job);
    const saved = outbox.save(job.jobId, result, new Date(this.options.timers.now()));
    this.options.deliver(job.jobId, result, saved);
    try {
      await saved;
    } catch (error) {
      // Nowhere to keep it (disk full, state directory gone): unless the send in flight delivers it, the ledger will time the job out, which records it as failed.
      logger.error(`job ${job.jobId}: its ${result.outcome} result cannot be saved (${(error as Error).message}); it is lost unless its first send delivers it`);
    }
  }
}
