import { Inject, Injectable } from '@nestjs/common';
import {
  AggregateCache,
  type CommandContext,
  type CommandResult,
  EVENT_STORE,
  type EventStore,
  handleCommand,
  type HandleCommandOptions,
  StreamLocks,
} from '@ledger/eventstore';
import { type DeviceCommand, deviceDecider, type DeviceState } from '../domain/device.decider';
import type { HostInventoryState } from '../domain/host-inventory.state';
import { INVENTORY_EVENT_SCHEMA_VERSIONS } from '../domain/inventory.events';
import { deviceStream } from '../domain/streams';
import { type DeviceMaintenanceTarget, resolveMaintenanceTarget } from './device-maintenance.target';
import { type InventoryCommandResult, toInventoryCommandResult } from './inventory-command.result';
import { DEVICE_CACHE, HOST_INVENTORY_CACHE } from './inventory.tokens';

/**
 * Runs commands against a device's stream. Commands on one device queue in
 * this process (many binds land on the same busy device).
 */
@Injectable()
export class DeviceCommandRunner {
  private readonly locks = new StreamLocks();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(HOST_INVENTORY_CACHE) private readonly hostCache: AggregateCache<HostInventoryState>,
    @Inject(DEVICE_CACHE) private readonly cache: AggregateCache<DeviceState>,
  ) {}

  /** Maintenance: first checks that the host reports the device. */
  async runMaintenance(
    target: DeviceMaintenanceTarget,
    command: (deviceUuid: string) => DeviceCommand,
    context: CommandContext,
  ): Promise<InventoryCommandResult> {
    const deviceUuid = await resolveMaintenanceTarget(this.store, this.hostCache, target);
    return toInventoryCommandResult(await this.run(command(deviceUuid), context));
  }

  run(command: DeviceCommand, context: CommandContext): Promise<CommandResult<DeviceState>> {
    return runDeviceCommand(this.store, command, context, { cache: this.cache, locks: this.locks });
  }
}

/**
 * One command on a device's stream: load, decide, append with the expected
 * version. For callers outside the Nest command side, such as the
 * processors role's device-facts reactor, which has no command handlers.
 */
export function runDeviceCommand(
  store: EventStore,
  command: DeviceCommand,
  context: CommandContext,
  options: Pick<HandleCommandOptions<DeviceState>, 'cache' | 'locks'> = {},
): Promise<CommandResult<DeviceState>> {
  return handleCommand(store, deviceStream(command.deviceUuid.toLowerCase()), deviceDecider, command, context, {
    ...options,
    schemaVersions: INVENTORY_EVENT_SCHEMA_VERSIONS,
  });
}
