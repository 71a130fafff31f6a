import type { Provider } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import { type AggregateCache, type CommandContext, type DeciderCommandHandler, deciderCommandHandler, EVENT_STORE, type EventStore, type RecordedEvent, STREAM_LOCKS, type StreamLocks } from '@ledger/eventstore';
import type { JobCommand } from '../domain/job.commands';
import { jobDecider } from '../domain/job.decider';
import { JOB_EVENT_SCHEMA_VERSIONS, type JobEvent, jobStream } from '../domain/job.events';
import { jobDeadline, type JobState } from '../domain/job.state';
import { JobRequestedNotice } from './job-requested.notice';
import { JOB_CACHE, JOB_COMMANDS } from './jobs.tokens';

/** The job commands' runner: every command on `job-<id>` goes through it. */
export type JobCommands = DeciderCommandHandler<JobCommand, JobState, JobEvent>;

/**
 * Job commands queue per job on the process's stream locks (a result and a
 * sweep of one job never race in a process). A new job wakes its host's
 * long polls in this process (JobRequestedNotice).
 */
export const jobCommandsProvider: Provider = {
  provide: JOB_COMMANDS,
  inject: [EVENT_STORE, JOB_CACHE, STREAM_LOCKS, EventBus],
  useFactory: (store: EventStore, cache: AggregateCache<JobState>, locks: StreamLocks, eventBus: EventBus): JobCommands =>
    deciderCommandHandler(store, {
      decider: jobDecider,
      streamOf: (command) => jobStream(command.jobId),
      cache,
      locks,
      schemaVersions: JOB_EVENT_SCHEMA_VERSIONS,
      contextOf: (command, callerContext) => (command.type === 'RequestJob' ? Promise.resolve(callerContext) : correlatedWithRequest(store, command.jobId, callerContext)),
      afterAppend: ({ state: job, events, position }) => {
        if (job.status !== 'none' && events.some((event) => event.type === 'jobs.JobRequested')) {
          eventBus.publish(new JobRequestedNotice(job.jobId, job.hostname, position, jobDeadline(job)));
        }
      },
    }),
};

/**
 * Whatever happens to a job later (the agent's poll and result, a
 * timeout) carries on the correlation id of its request (an operator's or
 * Nova's request, a workflow), caused by the caller's request: one id
 * follows the work from the request to the host and back.
 */
async function correlatedWithRequest(store: EventStore, jobId: string, callerContext: CommandContext): Promise<CommandContext> {
  const [requested] = await store.readStream(jobStream(jobId), { max: 1 });
  return requested ? correlatedWith(requested, callerContext) : callerContext;
}

/** The caller's context on the job's request's correlation, caused by the caller's request. */
export function correlatedWith(requested: RecordedEvent, callerContext: CommandContext): CommandContext {
  return { ...callerContext, correlationId: requested.metadata.correlationId, causationId: callerContext.causationId ?? callerContext.correlationId };
}
