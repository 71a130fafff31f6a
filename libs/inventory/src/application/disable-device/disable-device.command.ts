import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { InventoryCommandResult } from '../inventory-command.result';
import type { DeviceMaintenanceTarget } from '../device-maintenance.target';

/** Puts a device in maintenance. Disabling a disabled device appends nothing. */
export class DisableDeviceCommand extends LedgerCommand<InventoryCommandResult> {
  constructor(
    readonly target: DeviceMaintenanceTarget & { readonly reason?: string | null },
    readonly context: CommandContext,
  ) {
    super();
  }
}
