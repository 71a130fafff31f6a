import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { isLedgerError } from '@ledger/kernel';
import { JobErrorCodes } from '../../domain/job.errors';
import type { JobCommand } from '../../domain/job.commands';
import { DriverFactsRecorder } from '../driver-facts/driver-facts.recorder';
import { JobCommandRunner } from '../job-command.runner';
import type { JobCommandResult } from '../job-command.result';
import { RecordJobResultCommand } from './record-job-result.command';

@CommandHandler(RecordJobResultCommand)
export class RecordJobResultHandler implements ICommandHandler<RecordJobResultCommand> {
  private readonly logger = new Logger('Jobs');

  constructor(
    @Inject(JobCommandRunner) private readonly runner: JobCommandRunner,
    @Inject(DriverFactsRecorder) private readonly driverFacts: DriverFactsRecorder,
  ) {}

  async execute({ input, context }: RecordJobResultCommand): Promise<JobCommandResult> {
    const at = new Date().toISOString();
    const { jobId, evidence } = input;
    const command: JobCommand =
      input.outcome === 'completed'
        ? { type: 'CompleteJob', jobId, evidence, completedAt: at }
        : { type: 'FailJob', jobId, code: input.code, reason: input.reason, evidence, failedAt: at };
    try {
      return await this.runner.run(command, context);
    } catch (error) {
      if (!isLedgerError(error) || error.code !== JobErrorCodes.ALREADY_FINISHED) throw error;
      // An agent retries a result until it is acknowledged: if the ledger stopped between the job's
      // append and its driver fact, this retry is what records the fact (nothing, if it exists).
      await this.driverFacts.ensure(jobId, context);
      this.logger.warn(`result for job ${jobId} refused, the job is ${String(error.facts.state)} already: ${input.outcome}, ${JSON.stringify(input.evidence).slice(0, 500)}`);
      throw error;
    }
  }
}
