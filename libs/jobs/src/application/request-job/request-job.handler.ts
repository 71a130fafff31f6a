import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { uuidV7 } from '@ledger/kernel';
import { assertHostKnown } from '../host-known';
import { JobCommandRunner } from '../job-command.runner';
import type { RequestedJob } from '../requested-job';
import { RequestJobCommand } from './request-job.command';

@CommandHandler(RequestJobCommand)
export class RequestJobHandler implements ICommandHandler<RequestJobCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(JobCommandRunner) private readonly runner: JobCommandRunner,
  ) {}

  async execute({ input, context }: RequestJobCommand): Promise<RequestedJob> {
    await assertHostKnown(this.store, input.hostname);
    const { kind, params, timeoutSeconds, hostname } = input;
    const result = await this.runner.run(
      { type: 'RequestJob', jobId: uuidV7(), hostname, kind, params, timeoutSeconds, requestedAt: new Date().toISOString() },
      context,
    );
    return { jobId: result.jobId, position: result.position! };
  }
}
