import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { DeviceMaintenanceTarget } from '../device-maintenance.target';
import type { InventoryCommandResult } from '../inventory-command.result';

/** An operator declares a device healthy again (docs/operations.md, "Health policy"); a healthy device appends nothing. */
export class ClearDeviceHealthCommand extends LedgerCommand<InventoryCommandResult> {
  constructor(
    readonly target: DeviceMaintenanceTarget & { readonly note?: string | null },
    readonly context: CommandContext,
    readonly clearedAt?: string,
  ) {
    super();
  }
}
