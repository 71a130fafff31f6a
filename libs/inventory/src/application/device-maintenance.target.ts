import { isUuid, NotFoundError, ValidationError } from '@ledger/kernel';
import { AggregateCache, loadAggregate, type EventStore } from '@ledger/eventstore';
import { hostInventoryDecider } from '../domain/host-inventory.decider';
import type { HostInventoryState } from '../domain/host-inventory.state';
import { isValidHostname } from '../domain/hostname';
import { InventoryErrorCodes } from '../domain/inventory.errors';
import { hostStream } from '../domain/streams';

/** The device an operator addresses: its uuid and the host that reports it. */
export interface DeviceMaintenanceTarget {
  readonly deviceUuid: string;
  readonly hostname: string;
}

/**
 * Checks that the host currently reports the device, so maintenance facts
 * are only recorded for devices the ledger knows. Returns the uuid in lower
 * case (the form streams and events use).
 */
export async function resolveMaintenanceTarget(
  store: EventStore,
  hostCache: AggregateCache<HostInventoryState>,
  target: DeviceMaintenanceTarget,
): Promise<string> {
  if (!isUuid(target.deviceUuid)) {
    throw new ValidationError(InventoryErrorCodes.COMMAND_INVALID, 'deviceUuid must be a uuid', { path: 'deviceUuid' });
  }
  if (!isValidHostname(target.hostname)) {
    throw new ValidationError(InventoryErrorCodes.COMMAND_INVALID, 'hostname must be an RFC 1123 host name', { path: 'hostname' });
  }
  const deviceUuid = target.deviceUuid.toLowerCase();
  const { state } = await loadAggregate(store, hostStream(target.hostname), hostInventoryDecider, hostCache);
  if (!state.devices.has(deviceUuid)) {
    throw new NotFoundError(InventoryErrorCodes.DEVICE_NOT_FOUND, `device ${deviceUuid} is not reported by host ${target.hostname}`, {
      deviceUuid,
      hostname: target.hostname,
    });
  }
  return deviceUuid;
}
