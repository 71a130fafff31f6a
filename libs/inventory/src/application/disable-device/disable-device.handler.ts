import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type AggregateCache, EVENT_STORE, type EventStore } from '@ledger/eventstore';
import type { HostInventoryState } from '../../domain/host-inventory.state';
import type { DeviceCommands } from '../device-commands';
import { resolveMaintenanceTarget } from '../device-maintenance.target';
import { type InventoryCommandResult, toInventoryCommandResult } from '../inventory-command.result';
import { DEVICE_COMMANDS, HOST_INVENTORY_CACHE } from '../inventory.tokens';
import { DisableDeviceCommand } from './disable-device.command';

@CommandHandler(DisableDeviceCommand)
export class DisableDeviceHandler implements ICommandHandler<DisableDeviceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(HOST_INVENTORY_CACHE) private readonly hostCache: AggregateCache<HostInventoryState>,
    @Inject(DEVICE_COMMANDS) private readonly devices: DeviceCommands,
  ) {}

  /** Maintenance is recorded only for a device its host reports (resolveMaintenanceTarget). */
  async execute({ target, context }: DisableDeviceCommand): Promise<InventoryCommandResult> {
    const deviceUuid = await resolveMaintenanceTarget(this.store, this.hostCache, target);
    return toInventoryCommandResult(await this.devices.run({ type: 'DisableDevice', deviceUuid, reason: target.reason ?? null }, context));
  }
}
