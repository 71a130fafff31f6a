import type { AgentLogger } from './agent-logger';
import { backoffMs } from './backoff';
import { isLedgerCallError } from './ledger-call.error';
import type { LedgerClient } from './ledger-client';
import type { JobResult } from './protocol';
import type { ResultOutbox } from './result-outbox';
import { Pause, type Timers } from './timers';

export interface ResultSenderOptions {
  readonly outbox: ResultOutbox;
  readonly client: Pick<LedgerClient, 'postResult'>;
  readonly timers: Timers;
  readonly logger: AgentLogger;
  readonly random?: () => number;
  /** The ledger has the job's end (this result taken, or the job finished already, or refused for good). */
  readonly onDelivered?: (jobId: string) => void;
}

/**
 * The ledger's answer to a result for a job that is finished: the result's
 * own earlier attempt was taken (a replica recorded it, then died before
 * answering, and the agent sent it again to another), or the ledger timed
 * the job out. Either way the ledger has the job's end, and resending
 * cannot change it (docs/agent-protocol.md, Jobs).
 */
const ALREADY_FINISHED = 'JOB.ALREADY_FINISHED';
/** When nothing is pending, look again this often anyway (a result saved by an earlier run, a missed wake-up). */
const IDLE_RECHECK_MS = 60_000;

/**
 * Delivers the outbox: oldest result first; removes a result once the
 * ledger has it — also when it answers that the job is finished already
 * (409 JOB.ALREADY_FINISHED: this result sent before, or the ledger's
 * timeout), or has refused it for good (an unknown job) —
 * and keeps it through outages, retrying with exponential backoff capped
 * at 60 s.
 */
export class ResultSender {
  private failures = 0;
  private pause?: Pause;
  /** Results sent as they are saved (`send`), by job id: a flush leaves them to that send. */
  private readonly sending = new Map<string, Promise<void>>();

  constructor(private readonly options: ResultSenderOptions) {}

  /** A result was saved: send it now rather than at the next round. */
  wake(): void {
    this.pause?.wake();
  }

  async run(stop: AbortSignal): Promise<void> {
    this.pause = new Pause(this.options.timers, stop);
    while (!stop.aborted) {
      const delivered = await this.flush();
      if (stop.aborted) break;
      await this.pause.for(delivered ? IDLE_RECHECK_MS : backoffMs(this.failures, this.options.random));
    }
  }

  /**
   * Sends a job's result at once, while the outbox saves it (`saved`): the
   * ledger hears without waiting for the disk. Its file goes once the
   * ledger has it and the write is done; a send that fails leaves the saved
   * copy to the flushes, with backoff.
   */
  send(jobId: string, result: JobResult, saved: Promise<void>): void {
    if (this.sending.has(jobId)) return;
    const sending = (async () => {
      const ended = await this.deliver(jobId, result);
      await saved.catch(() => undefined);
      if (ended) this.done(jobId);
      else this.wake();
    })()
      .catch((error: unknown) => {
        this.options.logger.error(`job ${jobId}: sending its result failed unexpectedly (${(error as Error)?.message ?? error}); the saved copy is sent next`);
        this.wake();
      })
      .finally(() => this.sending.delete(jobId));
    this.sending.set(jobId, sending);
  }

  /** Sends what is pending (after the sends in flight end); true when the outbox is empty afterwards. Exposed for specs and for the final flush at stop. */
  async flush(): Promise<boolean> {
    await Promise.all(this.sending.values());
    for (const { jobId, result } of this.options.outbox.pending()) {
      if (!(await this.deliver(jobId, result))) return false;
      this.done(jobId);
    }
    return true;
  }

  /** Sends one result; true once the ledger has the job's end (this result taken, the job finished already, or refused for good), false to keep it. */
  private async deliver(jobId: string, result: JobResult): Promise<boolean> {
    const { outbox, client, logger } = this.options;
    try {
      await client.postResult(jobId, result);
      if (this.failures > 0) logger.log(`results: the ledger is back after ${this.failures} failed attempt(s)`);
      this.failures = 0;
      logger.log(`job ${jobId}: result delivered (${result.outcome})`);
      return true;
    } catch (error) {
      if (!isLedgerCallError(error)) throw error;
      if (error.code === ALREADY_FINISHED) {
        logger.warn(`job ${jobId}: the ledger has the job finished already (${error.reason}): by this result, sent before and taken, or by its timeout; not sent again`);
        return true;
      }
      if (!error.retryable) {
        logger.warn(`job ${jobId}: the ledger refused the result for good (${error.message}); dropped`);
        return true;
      }
      this.failures++;
      if (this.failures === 1) logger.warn(`results: not delivered (${error.message}); kept in ${outbox.dir}, retrying with backoff`);
      return false;
    }
  }

  /** The ledger has the job's end: the result leaves the outbox, and whoever waits on it hears. */
  private done(jobId: string): void {
    this.options.outbox.remove(jobId);
    this.options.onDelivered?.(jobId);
  }
}
