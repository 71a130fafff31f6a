import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { JobCommands } from '../job-commands';
import { JOB_COMMANDS } from '../jobs.tokens';
import { type JobCommandResult, toJobCommandResult } from '../job-command.result';
import { TimeOutJobCommand } from './time-out-job.command';

@CommandHandler(TimeOutJobCommand)
export class TimeOutJobHandler implements ICommandHandler<TimeOutJobCommand> {
  constructor(@Inject(JOB_COMMANDS) private readonly jobs: JobCommands) {}

  async execute({ input, context }: TimeOutJobCommand): Promise<JobCommandResult> {
    return toJobCommandResult(input.jobId, await this.jobs.run({ type: 'TimeOutJob', jobId: input.jobId, now: input.now }, context));
  }
}
