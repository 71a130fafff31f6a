import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { isLedgerError } from '@ledger/kernel';
import { JobErrorCodes } from '../../domain/job.errors';
import type { JobCommands } from '../job-commands';
import { JOB_COMMANDS } from '../jobs.tokens';
import { DispatchJobCommand } from './dispatch-job.command';
import { type JobOffer, offerOf } from './job-offer';

@CommandHandler(DispatchJobCommand)
export class DispatchJobHandler implements ICommandHandler<DispatchJobCommand> {
  constructor(@Inject(JOB_COMMANDS) private readonly jobs: JobCommands) {}

  async execute({ input, context }: DispatchJobCommand): Promise<JobOffer | null> {
    try {
      const { appended, state } = await this.jobs.run({ type: 'DispatchJob', ...input, dispatchedAt: new Date().toISOString() }, context);
      return appended === 0 || state.status === 'none' ? null : offerOf(state);
    } catch (error) {
      // The projection showed the job waiting, but it finished (or timed out) since: nothing to offer.
      if (isLedgerError(error) && error.code === JobErrorCodes.ALREADY_FINISHED) return null;
      throw error;
    }
  }
}
