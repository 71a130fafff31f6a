import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { ArqVisibility } from '../arq-visibility';

/** Unbinds requests (unbinding an unbound one is a no-op) and releases their handles and capacity. */
export class UnbindArqsCommand extends LedgerCommand<void> {
  constructor(
    readonly input: { readonly uuids: readonly string[]; readonly visibility: ArqVisibility },
    readonly context: CommandContext,
  ) {
    super();
  }
}
