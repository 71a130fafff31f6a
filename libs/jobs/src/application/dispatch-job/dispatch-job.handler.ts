import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { isLedgerError } from '@ledger/kernel';
import { JobErrorCodes } from '../../domain/job.errors';
import { JobCommandRunner } from '../job-command.runner';
import { DispatchJobCommand } from './dispatch-job.command';
import type { JobOffer } from './job-offer';

@CommandHandler(DispatchJobCommand)
export class DispatchJobHandler implements ICommandHandler<DispatchJobCommand> {
  constructor(@Inject(JobCommandRunner) private readonly runner: JobCommandRunner) {}

  async execute({ input, context }: DispatchJobCommand): Promise<JobOffer | null> {
    try {
      const { appended, state } = await this.runner.run({ type: 'DispatchJob', ...input, dispatchedAt: new Date().toISOString() }, context);
      if (appended === 0 || state.status === 'none') return null;
      const { jobId, kind, params, timeoutSeconds, requestedAt, attempt } = state;
      return { jobId, kind, params, timeoutSeconds, requestedAt, attempt };
    } catch (error) {
      // The projection showed the job waiting, but it finished (or timed out) since: nothing to offer.
      if (isLedgerError(error) && error.code === JobErrorCodes.ALREADY_FINISHED) return null;
      throw error;
    }
  }
}
