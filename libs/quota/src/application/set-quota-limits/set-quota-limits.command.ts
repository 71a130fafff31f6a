import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { QuotaCommandResult } from '../quota-command.result';

/** Sets (a number) or removes (null) limits of a project. Only changed limits are recorded. */
export class SetQuotaLimitsCommand extends LedgerCommand<QuotaCommandResult> {
  constructor(
    readonly input: { readonly project: string; readonly limits: Readonly<Record<string, number | null>> },
    readonly context: CommandContext,
  ) {
    super();
  }
}
