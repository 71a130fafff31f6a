import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { ProgrammingCommandResult } from '../programming-command.result';

/** Stops trusting a key: later images signed with it are refused. BITSTREAM.KEY_UNKNOWN when it is not trusted. */
export class RevokeSigningKeyCommand extends LedgerCommand<ProgrammingCommandResult> {
  constructor(
    readonly input: { readonly keyId: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}
