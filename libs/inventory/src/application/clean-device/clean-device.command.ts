import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { InventoryCommandResult } from '../inventory-command.result';

/** An operator cleans a device's clean-failed handles again: a new clean job (INVENTORY.CLEAN_NOT_FAILED when none failed). */
export class RetryCleanCommand extends LedgerCommand<InventoryCommandResult> {
  constructor(
    readonly target: { readonly deviceUuid: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}

/** An operator offers a device's clean-failed handles again without a clean, saying why. */
export class ReleaseCleanCommand extends LedgerCommand<InventoryCommandResult> {
  constructor(
    readonly target: { readonly deviceUuid: string; readonly reason: string | null },
    readonly context: CommandContext,
  ) {
    super();
  }
}
