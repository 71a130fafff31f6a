import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { JobOffer } from './job-offer';

/**
 * The host's long poll takes a job: records JobDispatched and answers the
 * offer, or null when there is nothing to hand over (finished meanwhile, or
 * already with this agent boot). Candidates come from the jobs projection,
 * which may lag; the job's stream decides.
 */
export class DispatchJobCommand extends LedgerCommand<JobOffer | null> {
  constructor(
    readonly input: { readonly jobId: string; readonly hostname: string; readonly agentBoot: string | null },
    readonly context: CommandContext,
  ) {
    super();
  }
}
