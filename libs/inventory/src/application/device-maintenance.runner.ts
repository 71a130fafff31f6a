import { Inject, Injectable } from '@nestjs/common';
import { AggregateCache, type CommandContext, EVENT_STORE, type EventStore, handleCommand } from '@ledger/eventstore';
import {
  type DeviceMaintenanceCommand,
  deviceMaintenanceDecider,
  type DeviceMaintenanceState,
} from '../domain/device-maintenance.decider';
import type { HostInventoryState } from '../domain/host-inventory.state';
import { INVENTORY_EVENT_SCHEMA_VERSIONS } from '../domain/inventory.events';
import { deviceStream } from '../domain/streams';
import { type DeviceMaintenanceTarget, resolveMaintenanceTarget } from './device-maintenance.target';
import { type InventoryCommandResult, toInventoryCommandResult } from './inventory-command.result';
import { DEVICE_MAINTENANCE_CACHE, HOST_INVENTORY_CACHE } from './inventory.tokens';

/**
 * The path both maintenance commands share: check that the host reports the
 * device, then run the command against the device's stream.
 */
@Injectable()
export class DeviceMaintenanceRunner {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(HOST_INVENTORY_CACHE) private readonly hostCache: AggregateCache<HostInventoryState>,
    @Inject(DEVICE_MAINTENANCE_CACHE) private readonly cache: AggregateCache<DeviceMaintenanceState>,
  ) {}

  async run(
    target: DeviceMaintenanceTarget,
    command: (deviceUuid: string) => DeviceMaintenanceCommand,
    context: CommandContext,
  ): Promise<InventoryCommandResult> {
    const deviceUuid = await resolveMaintenanceTarget(this.store, this.hostCache, target);
    const result = await handleCommand(this.store, deviceStream(deviceUuid), deviceMaintenanceDecider, command(deviceUuid), context, {
      cache: this.cache,
      schemaVersions: INVENTORY_EVENT_SCHEMA_VERSIONS,
    });
    return toInventoryCommandResult(result);
  }
}
