import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { JobCommandRunner } from '../job-command.runner';
import type { JobCommandResult } from '../job-command.result';
import { TimeOutJobCommand } from './time-out-job.command';

@CommandHandler(TimeOutJobCommand)
export class TimeOutJobHandler implements ICommandHandler<TimeOutJobCommand> {
  constructor(@Inject(JobCommandRunner) private readonly runner: JobCommandRunner) {}

  execute({ input, context }: TimeOutJobCommand): Promise<JobCommandResult> {
    return this.runner.run({ type: 'TimeOutJob', jobId: input.jobId, now: input.now }, context);
  }
}
