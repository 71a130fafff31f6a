import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { QuotaCommandResult } from '../quota-command.result';

/** Releases what the consumers hold; ids holding nothing are ignored (appended 0). */
export class ReleaseQuotaCommand extends LedgerCommand<QuotaCommandResult> {
  constructor(
    readonly input: { readonly project: string; readonly consumerIds: readonly string[] },
    readonly context: CommandContext,
  ) {
    super();
  }
}
