import { Inject, Logger, Optional } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type CommandContext, EVENT_STORE, type EventStore, handleMultiStreamCommand, type RecordedEvent, STREAM_LOCKS, type StreamLocks } from '@ledger/eventstore';
import { isLedgerError } from '@ledger/kernel';
import { JobErrorCodes } from '../../domain/job.errors';
import type { JobCommand } from '../../domain/job.commands';
import { jobDecider } from '../../domain/job.decider';
import { type JobCompleted, type JobFailed, JOB_EVENT_SCHEMA_VERSIONS, type JobRequested, jobStream } from '../../domain/job.events';
import { type JobCommandResult, toJobCommandResult } from '../job-command.result';
import { correlatedWith, type JobCommands } from '../job-commands';
import { JOB_COMMANDS } from '../jobs.tokens';
import { JOB_RESULT_FACTS, type JobResultFacts, type JobResultFactTarget } from './job-result-facts.port';
import { RecordJobResultCommand } from './record-job-result.command';

type FinishJob = Extract<JobCommand, { type: 'CompleteJob' | 'FailJob' }>;

@CommandHandler(RecordJobResultCommand)
export class RecordJobResultHandler implements ICommandHandler<RecordJobResultCommand> {
  private readonly logger = new Logger('Jobs');

  constructor(
    @Inject(JOB_COMMANDS) private readonly jobs: JobCommands,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(STREAM_LOCKS) private readonly locks: StreamLocks,
    @Optional() @Inject(JOB_RESULT_FACTS) private readonly facts?: JobResultFacts,
  ) {}

  async execute({ input, context }: RecordJobResultCommand): Promise<JobCommandResult> {
    const at = new Date().toISOString();
    const { jobId, evidence } = input;
    const command: FinishJob =
      input.outcome === 'completed'
        ? { type: 'CompleteJob', jobId, evidence, completedAt: at }
        : { type: 'FailJob', jobId, code: input.code, reason: input.reason, evidence, failedAt: at };
    try {
      return toJobCommandResult(jobId, await this.record(command, context));
    } catch (error) {
      if (!isLedgerError(error) || error.code !== JobErrorCodes.ALREADY_FINISHED) throw error;
      this.logger.warn(`result for job ${jobId} refused, the job is ${String(error.facts.state)} already: ${input.outcome}, ${JSON.stringify(input.evidence).slice(0, 500)}`);
      throw error;
    }
  }

  /** The result, with the fact another context reads in it in the same append where there is one and the store can (else the fact follows). */
  private async record(command: FinishJob, callerContext: CommandContext) {
    if (!this.facts || !this.store.multiStreamAppend) return this.jobs.run(command, callerContext);
    const [requested] = await this.store.readStream(jobStream(command.jobId), { max: 1 });
    const target = requested?.type === 'jobs.JobRequested' ? this.facts(requested as RecordedEvent & JobRequested) : undefined;
    if (!target) return this.jobs.run(command, callerContext);
    const result = await recordWithFact(this.store, this.locks, this.jobs, command, correlatedWith(requested, callerContext), target);
    return { ...result, state: result.states.job };
  }
}

function recordWithFact(store: EventStore, locks: StreamLocks, jobs: JobCommands, command: FinishJob, context: CommandContext, target: JobResultFactTarget) {
  // The fact carries its requester's actor and correlation, caused by the request that brought the result (as the result is).
  const fact = { ...target.participant, context: { ...target.participant.context, causationId: context.causationId ?? context.correlationId } };
  const participants = { job: jobs.participant(jobStream(command.jobId)), fact };
  return handleMultiStreamCommand(
    store,
    participants,
    (states) => {
      const job = jobDecider.decide(command, states.job);
      const finished = job.find((event): event is JobCompleted | JobFailed => event.type === 'jobs.JobCompleted' || event.type === 'jobs.JobFailed');
      return { job, fact: finished ? target.decide(states.fact, finished) : [] };
    },
    context,
    { schemaVersions: { ...JOB_EVENT_SCHEMA_VERSIONS, ...target.schemaVersions }, locks },
  );
}
