import { Inject, Injectable } from '@nestjs/common';
import { AggregateCache, type CommandContext, EVENT_STORE, type EventStore, foldEvents, handleCommand } from '@ledger/eventstore';
import { hostDriversDecider, type HostDriversState, hostStream, INVENTORY_EVENT_SCHEMA_VERSIONS } from '@ledger/inventory';
import { jobDecider } from '../../domain/job.decider';
import { isJobFinishedEvent, type JobCompleted, type JobEvent, type JobFailed, jobStream } from '../../domain/job.events';
import { isDriverJobKind } from '../../domain/job-kinds';
import type { KnownJob } from '../../domain/job.state';
import { HOST_DRIVERS_CACHE } from '../jobs.tokens';
import { driverOutcomeOf } from './driver-outcome';

/**
 * Appends the host-stream fact of a finished driver job (DriverInstalled,
 * DriverUninstalled or DriverFailed). It is a second append after the job's
 * own, so it is idempotent by job id: `ensure` records a fact a crash in
 * between left out, and the timeout sweeper calls it for finished driver jobs
 * the jobs projection shows without one.
 */
@Injectable()
export class DriverFactsRecorder {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(HOST_DRIVERS_CACHE) private readonly cache: AggregateCache<HostDriversState>,
  ) {}

  /** Resolves to the fact's position, or undefined when it was recorded before. */
  async record(job: KnownJob, finished: JobCompleted | JobFailed, context: CommandContext): Promise<number | undefined> {
    const result = await handleCommand(this.store, hostStream(job.hostname), hostDriversDecider, driverOutcomeOf(job, finished), context, {
      cache: this.cache,
      schemaVersions: INVENTORY_EVENT_SCHEMA_VERSIONS,
    });
    return result.position;
  }

  /** Records the fact of a finished driver job from its stream; nothing for other jobs or unfinished ones. */
  async ensure(jobId: string, context: CommandContext): Promise<number | undefined> {
    const events = (await this.store.readStream(jobStream(jobId))) as unknown as JobEvent[];
    const job = foldEvents(jobDecider, jobDecider.initialState(), events);
    const finished = events.find(isJobFinishedEvent);
    if (job.status === 'none' || !finished || !isDriverJobKind(job.kind)) return undefined;
    return this.record(job, finished, context);
  }
}
