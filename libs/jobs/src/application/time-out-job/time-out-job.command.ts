import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { JobCommandResult } from '../job-command.result';

/** The sweeper's: fails the job with JOB.TIMED_OUT if its deadline has passed by `now` and it is unfinished; else nothing. */
export class TimeOutJobCommand extends LedgerCommand<JobCommandResult> {
  constructor(
    readonly input: { readonly jobId: string; readonly now: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}
