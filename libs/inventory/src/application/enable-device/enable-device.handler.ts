import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AggregateCache, EVENT_STORE, handleCommand, type EventStore } from '@ledger/eventstore';
import { deviceMaintenanceDecider, type DeviceMaintenanceState } from '../../domain/device-maintenance.decider';
import type { HostInventoryState } from '../../domain/host-inventory.state';
import { INVENTORY_EVENT_SCHEMA_VERSIONS } from '../../domain/inventory.events';
import { deviceStream } from '../../domain/streams';
import { resolveMaintenanceTarget } from '../device-maintenance.target';
import { toInventoryCommandResult, type InventoryCommandResult } from '../inventory-command.result';
import { DEVICE_MAINTENANCE_CACHE, HOST_INVENTORY_CACHE } from '../inventory.tokens';
import { EnableDeviceCommand } from './enable-device.command';

@CommandHandler(EnableDeviceCommand)
export class EnableDeviceHandler implements ICommandHandler<EnableDeviceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(HOST_INVENTORY_CACHE) private readonly hostCache: AggregateCache<HostInventoryState>,
    @Inject(DEVICE_MAINTENANCE_CACHE) private readonly cache: AggregateCache<DeviceMaintenanceState>,
  ) {}

  async execute({ target, context }: EnableDeviceCommand): Promise<InventoryCommandResult> {
    const deviceUuid = await resolveMaintenanceTarget(this.store, this.hostCache, target);
    const result = await handleCommand(
      this.store,
      deviceStream(deviceUuid),
      deviceMaintenanceDecider,
      { type: 'EnableDevice', deviceUuid },
      context,
      { cache: this.cache, schemaVersions: INVENTORY_EVENT_SCHEMA_VERSIONS },
    );
    return toInventoryCommandResult(result);
  }
}
