import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap, Optional } from '@nestjs/common';
import { CommandBus, EventBus, ofType } from '@nestjs/cqrs';
import type { Subscription } from 'rxjs';
import type { CommandContext } from '@ledger/eventstore';
import { JobRequestedNotice, TimeOutJobCommand } from '@ledger/jobs';
import { SYSTEM_ACTOR, uuidV7 } from '@ledger/kernel';
import { JobQueries } from '@ledger/projections/jobs';
import { READ_MODELS_PREPARATION, type ReadModelsPreparation } from '../infrastructure/read-models-preparation';

/** The longest sleep between sweeps, so that jobs requested on other replicas time out within it. */
const MAX_SLEEP_MS = 5_000;
const FIRST_SWEEP_MS = 1_000;
const MIN_SLEEP_MS = 100;
const BATCH = 100;

export interface SweepReport {
  readonly timedOut: number;
}

/**
 * Fails jobs whose deadline (`requestedAt + timeoutSeconds`) has passed
 * with JOB.TIMED_OUT. It sleeps until the earliest deadline the jobs
 * projection shows (at most 5 s) and is woken sooner by a job requested in
 * this process with an earlier deadline. Every conductor replica may run it:
 * a timeout is decided on the job's stream, so a second sweeper, or a result
 * that won the race, makes it a no-op.
 */
@Injectable()
export class JobTimeoutSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('JobTimeoutSweeper');
  private subscription: Subscription | undefined;
  private timer: NodeJS.Timeout | undefined;
  private plannedAt = Infinity;
  private running: Promise<void> | undefined;
  /** A sweep came due while one was running: go again as soon as it ends. */
  private again = false;
  private stopped = false;
  /** Said once that the jobs read model is not there yet, rather than failing every sweep until it is. */
  private saidWaiting = false;

  constructor(
    @Inject(JobQueries) private readonly queries: JobQueries,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(EventBus) private readonly eventBus: EventBus,
    // Null in a process that runs the processors (they prepare the read models before it serves).
    @Optional() @Inject(READ_MODELS_PREPARATION) private readonly preparation?: ReadModelsPreparation | null,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.eventBus.pipe(ofType(JobRequestedNotice)).subscribe((notice) => this.plan(notice.deadline));
    this.plan(Date.now() + FIRST_SWEEP_MS);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.subscription?.unsubscribe();
    clearTimeout(this.timer);
    await this.running;
  }

  /** One sweep at `now` (also what tests call). */
  async sweepOnce(now: Date = new Date()): Promise<SweepReport> {
    const context: CommandContext = { actor: SYSTEM_ACTOR, correlationId: uuidV7() };
    let timedOut = 0;
    for (const jobId of await this.queries.dueForTimeout(now.toISOString(), BATCH)) {
      const result = await this.commands.execute(new TimeOutJobCommand({ jobId, now: now.toISOString() }, context));
      timedOut += result.appended;
    }
    if (timedOut > 0) this.logger.warn(`${timedOut} job(s) failed with JOB.TIMED_OUT: no result within their timeout`);
    return { timedOut };
  }

  /** An API replica started before any processors replica: the jobs table comes when one prepares the read models; sweep then. */
  private waitForReadModel(): void {
    if (this.saidWaiting) return;
    this.saidWaiting = true;
    this.logger.log('waiting for a processors replica to prepare the read models before sweeping for timed-out jobs');
  }

  /** Sweeps at `at` (epoch ms) unless a sweep is planned sooner. */
  private plan(at: number): void {
    if (this.stopped || at >= this.plannedAt) return;
    clearTimeout(this.timer);
    this.plannedAt = at;
    this.timer = setTimeout(() => void this.run(), Math.max(0, at - Date.now()));
    this.timer.unref();
  }

  private async run(): Promise<void> {
    this.plannedAt = Infinity;
    if (this.running) {
      this.again = true;
      return;
    }
    let next = Date.now() + MAX_SLEEP_MS;
    this.running = (async () => {
      try {
        if (((await this.preparation?.missing()) ?? []).length > 0) return this.waitForReadModel();
        const report = await this.sweepOnce();
        const deadline = await this.queries.nextDeadline();
        if (report.timedOut >= BATCH) next = Date.now();
        else if (deadline !== null) next = Math.min(next, Date.parse(deadline));
      } catch (error) {
        this.logger.error(`sweep failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    })();
    await this.running;
    this.running = undefined;
    if (this.again) next = Date.now();
    this.again = false;
    // A deadline the projection still shows after its job finished must not spin the sweeper.
    this.plan(Math.max(next, Date.now() + MIN_SLEEP_MS));
  }
}
