import type { Provider } from '@nestjs/common';
import { type AggregateCache, type CommandContext, EVENT_STORE, type EventStore } from '@ledger/eventstore';
import type { ClearDeviceHealth, DeviceMaintenanceCommand } from '../domain/device.decider';
import type { HostInventoryState } from '../domain/host-inventory.state';
import type { DeviceCommands } from './device-commands';
import { type DeviceMaintenanceTarget, resolveMaintenanceTarget } from './device-maintenance.target';
import { type InventoryCommandResult, toInventoryCommandResult } from './inventory-command.result';
import { DEVICE_COMMANDS, DEVICE_MAINTENANCE, HOST_INVENTORY_CACHE } from './inventory.tokens';

/** An operator's maintenance command on a device (or health clear), recorded only for a device its host reports. */
export interface DeviceMaintenance {
  run(target: DeviceMaintenanceTarget, command: (deviceUuid: string) => DeviceMaintenanceCommand | ClearDeviceHealth, context: CommandContext): Promise<InventoryCommandResult>;
}

export const deviceMaintenanceProvider: Provider = {
  provide: DEVICE_MAINTENANCE,
  inject: [EVENT_STORE, HOST_INVENTORY_CACHE, DEVICE_COMMANDS],
  useFactory: (store: EventStore, hostCache: AggregateCache<HostInventoryState>, devices: DeviceCommands): DeviceMaintenance => ({
    async run(target, command, context) {
      const deviceUuid = await resolveMaintenanceTarget(store, hostCache, target);
      return toInventoryCommandResult(await devices.run(command(deviceUuid), context));
    },
  }),
};
