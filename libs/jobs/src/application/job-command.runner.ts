import { Inject, Injectable } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import { AggregateCache, type CommandContext, EVENT_STORE, type EventStore, handleCommand, StreamLocks } from '@ledger/eventstore';
import type { JobCommand } from '../domain/job.commands';
import { jobDecider } from '../domain/job.decider';
import { isJobFinishedEvent, JOB_EVENT_SCHEMA_VERSIONS, jobStream } from '../domain/job.events';
import { jobDeadline, type JobState } from '../domain/job.state';
import { isDriverJobKind } from '../domain/job-kinds';
import { DriverFactsRecorder } from './driver-facts/driver-facts.recorder';
import type { JobCommandResult } from './job-command.result';
import { JobRequestedNotice } from './job-requested.notice';
import { JOB_CACHE, JOB_STREAM_LOCKS } from './jobs.tokens';

/**
 * The path every job command takes: load → decide → append on `job-<id>`,
 * then what follows from what was appended — waking the host's long polls
 * for a new job, and the host-stream fact for a finished driver job.
 */
@Injectable()
export class JobCommandRunner {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(JOB_CACHE) private readonly cache: AggregateCache<JobState>,
    @Inject(JOB_STREAM_LOCKS) private readonly locks: StreamLocks,
    @Inject(EventBus) private readonly eventBus: EventBus,
    @Inject(DriverFactsRecorder) private readonly driverFacts: DriverFactsRecorder,
  ) {}

  async run(command: JobCommand, callerContext: CommandContext): Promise<JobCommandResult> {
    const context = command.type === 'RequestJob' ? callerContext : await this.correlatedWithRequest(command.jobId, callerContext);
    const result = await handleCommand(this.store, jobStream(command.jobId), jobDecider, command, context, {
      cache: this.cache,
      locks: this.locks,
      schemaVersions: JOB_EVENT_SCHEMA_VERSIONS,
    });
    const job = result.state;
    let position = result.position;
    if (job.status !== 'none' && position !== undefined) {
      if (result.events.some((event) => event.type === 'jobs.JobRequested')) {
        this.eventBus.publish(new JobRequestedNotice(job.jobId, job.hostname, position, jobDeadline(job)));
      }
      const finished = result.events.find(isJobFinishedEvent);
      if (finished && isDriverJobKind(job.kind)) position = (await this.driverFacts.record(job, finished, context)) ?? position;
    }
    return { jobId: command.jobId.toLowerCase(), appended: result.appended, position: position ?? null, state: job };
  }

  /**
   * Whatever happens to a job later (the agent's poll and result, a
   * timeout) carries on the correlation id of its request (an operator's or
   * Nova's request, a workflow), caused by the caller's request: one id
   * follows the work from the request to the host and back.
   */
  private async correlatedWithRequest(jobId: string, callerContext: CommandContext): Promise<CommandContext> {
    const [requested] = await this.store.readStream(jobStream(jobId), { max: 1 });
    return requested ? { ...callerContext, correlationId: requested.metadata.correlationId, causationId: callerContext.causationId ?? callerContext.correlationId } : callerContext;
  }
}
