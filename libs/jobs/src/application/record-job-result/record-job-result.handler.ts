import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { isLedgerError } from '@ledger/kernel';
import { JobErrorCodes } from '../../domain/job.errors';
import type { JobCommand } from '../../domain/job.commands';
import { type JobCommandResult, toJobCommandResult } from '../job-command.result';
import type { JobCommands } from '../job-commands';
import { JOB_COMMANDS } from '../jobs.tokens';
import { RecordJobResultCommand } from './record-job-result.command';

@CommandHandler(RecordJobResultCommand)
export class RecordJobResultHandler implements ICommandHandler<RecordJobResultCommand> {
  private readonly logger = new Logger('Jobs');

  constructor(@Inject(JOB_COMMANDS) private readonly jobs: JobCommands) {}

  async execute({ input, context }: RecordJobResultCommand): Promise<JobCommandResult> {
    const at = new Date().toISOString();
    const { jobId, evidence } = input;
    const command: JobCommand =
      input.outcome === 'completed'
        ? { type: 'CompleteJob', jobId, evidence, completedAt: at }
        : { type: 'FailJob', jobId, code: input.code, reason: input.reason, evidence, failedAt: at };
    try {
      return toJobCommandResult(jobId, await this.jobs.run(command, context));
    } catch (error) {
      if (!isLedgerError(error) || error.code !== JobErrorCodes.ALREADY_FINISHED) throw error;
      this.logger.warn(`result for job ${jobId} refused, the job is ${String(error.facts.state)} already: ${input.outcome}, ${JSON.stringify(input.evidence).slice(0, 500)}`);
      throw error;
    }
  }
}
