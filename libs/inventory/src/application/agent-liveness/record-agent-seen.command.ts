import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { InventoryCommandResult } from '../inventory-command.result';

/**
 * A report of the host arrived (heartbeats carry their own): a lost agent is
 * back. `seenAt` defaults to the time the handler runs.
 */
export class RecordAgentSeenCommand extends LedgerCommand<InventoryCommandResult> {
  constructor(
    readonly hostname: string,
    readonly context: CommandContext,
    readonly seenAt?: string,
  ) {
    super();
  }
}
