import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { InventoryCommandResult } from '../inventory-command.result';
import type { DeviceMaintenanceTarget } from '../device-maintenance.target';

/** Takes a device out of maintenance. Enabling an enabled device appends nothing. */
export class EnableDeviceCommand extends LedgerCommand<InventoryCommandResult> {
  constructor(
    readonly target: DeviceMaintenanceTarget,
    readonly context: CommandContext,
  ) {
    super();
  }
}
