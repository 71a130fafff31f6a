import type { Provider } from '@nestjs/common';
import { type AggregateCache, type DeciderCommandHandler, deciderCommandHandler, EVENT_STORE, type EventStore, STREAM_LOCKS, type StreamLocks } from '@ledger/eventstore';
import { type DeviceCommand, deviceDecider, type DeviceState } from '../domain/device.decider';
import { type DeviceEvent, INVENTORY_EVENT_SCHEMA_VERSIONS } from '../domain/inventory.events';
import { deviceStream } from '../domain/streams';
import { DEVICE_COMMANDS, DEVICE_CACHE } from './inventory.tokens';

/** The device commands' runner: every command on a device's stream goes through it. */
export type DeviceCommands = DeciderCommandHandler<DeviceCommand, DeviceState, DeviceEvent>;

/**
 * Commands on one device queue on the process's stream locks (many binds,
 * and the facts of its jobs, land on the same busy device).
 */
export function deviceCommands(store: EventStore, options: { readonly cache?: AggregateCache<DeviceState>; readonly locks?: StreamLocks } = {}): DeviceCommands {
  return deciderCommandHandler(store, {
    decider: deviceDecider,
    streamOf: (command) => deviceStream(command.deviceUuid.toLowerCase()),
    ...options,
    schemaVersions: INVENTORY_EVENT_SCHEMA_VERSIONS,
  });
}

export const deviceCommandsProvider: Provider = {
  provide: DEVICE_COMMANDS,
  inject: [EVENT_STORE, DEVICE_CACHE, STREAM_LOCKS],
  useFactory: (store: EventStore, cache: AggregateCache<DeviceState>, locks: StreamLocks): DeviceCommands => deviceCommands(store, { cache, locks }),
};
