import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '@ledger/eventstore';
import type { QuotaCommandResult } from '../quota-command.result';

/** Releases what the consumers hold; ids holding nothing are ignored (appended 0). */
export class ReleaseQuotaCommand extends Command<QuotaCommandResult> {
  constructor(
    readonly input: { readonly project: string; readonly consumerIds: readonly string[] },
    readonly context: CommandContext,
  ) {
    super();
  }
}
