import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { ProgrammingCommandResult } from '../programming-command.result';

/** Retires a registered image; retiring it again appends nothing. BITSTREAM.NOT_FOUND for an unknown id. */
export class RetireBitstreamCommand extends LedgerCommand<ProgrammingCommandResult> {
  constructor(
    readonly input: { readonly bitstreamId: string; readonly reason: string | null },
    readonly context: CommandContext,
  ) {
    super();
  }
}
