import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type AggregateCache, EVENT_STORE, type EventStore } from '@ledger/eventstore';
import type { HostInventoryState } from '../../domain/host-inventory.state';
import type { DeviceCommands } from '../device-commands';
import { resolveMaintenanceTarget } from '../device-maintenance.target';
import { type InventoryCommandResult, toInventoryCommandResult } from '../inventory-command.result';
import { DEVICE_COMMANDS, HOST_INVENTORY_CACHE } from '../inventory.tokens';
import { EnableDeviceCommand } from './enable-device.command';

@CommandHandler(EnableDeviceCommand)
export class EnableDeviceHandler implements ICommandHandler<EnableDeviceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(HOST_INVENTORY_CACHE) private readonly hostCache: AggregateCache<HostInventoryState>,
    @Inject(DEVICE_COMMANDS) private readonly devices: DeviceCommands,
  ) {}

  /** Maintenance is recorded only for a device its host reports (resolveMaintenanceTarget). */
  async execute({ target, context }: EnableDeviceCommand): Promise<InventoryCommandResult> {
    const deviceUuid = await resolveMaintenanceTarget(this.store, this.hostCache, target);
    return toInventoryCommandResult(await this.devices.run({ type: 'EnableDevice', deviceUuid }, context));
  }
}
