import type { RecordedEvent } from '@ledger/eventstore';
import type { AttachHandleSnapshot, DeployableDescription } from '@ledger/inventory';
import type { DeployableRow } from './inventory-table-rows';
import type { InventoryWorkingSet } from './inventory-working-set';

/**
 * Inserts or updates a device's deployables, each stamped with the host
 * stream version of the event. An existing deployable keeps its identity
 * columns and `created_at`; `updated_at` moves only when what Placement sees
 * (resource class, count, traits, driver) changed.
 */
export function putDeployables(
  set: InventoryWorkingSet,
  deviceUuid: string,
  hostname: string,
  deployables: readonly DeployableDescription[],
  event: RecordedEvent,
): void {
  const at = event.recordedAt;
  for (const deployable of deployables) {
    const reported = {
      resource_class: deployable.resourceClass,
      count: deployable.count,
      // Traits are sorted strings, so plain JSON is already canonical.
      traits: JSON.stringify(deployable.traits),
      driver_name: deployable.driverName ?? null,
      stream_version: event.version,
    };
    const existing = set.deployables.get(deployable.uuid);
    if (existing === undefined) {
      set.deployables.put({
        uuid: deployable.uuid,
        device_uuid: deviceUuid,
        hostname,
        name: deployable.name,
        rp_uuid: deployable.rpUuid,
        ...reported,
        created_at: at,
        updated_at: at,
      });
      continue;
    }
    const changed =
      existing.resource_class !== reported.resource_class ||
      existing.count !== reported.count ||
      existing.traits !== reported.traits ||
      (existing.driver_name ?? '') !== (reported.driver_name ?? '');
    set.deployables.put({ ...existing, ...reported, updated_at: changed ? at : existing.updated_at });
  }
}

/** Deletes the device's deployables that `doomed` picks, each with its attach handles. */
export function deleteDeployablesOf(set: InventoryWorkingSet, deviceUuid: string, doomed: (row: DeployableRow) => boolean): void {
  for (const uuid of set.deployables.keysIn(deviceUuid)) {
    if (!doomed(set.deployables.get(uuid)!)) continue;
    for (const handle of set.handles.keysIn(uuid)) set.handles.delete(handle);
    set.deployables.delete(uuid);
  }
}

/** Inserts handles; a handle already there only takes the new physical network and keeps its `in_use` flag (claims live on the device stream). */
export function putHandles(
  set: InventoryWorkingSet,
  hostname: string,
  deviceUuid: string,
  deployableUuid: string,
  handles: readonly AttachHandleSnapshot[],
): void {
  for (const handle of handles) {
    const physicalNetwork = handle.physicalNetwork ?? null;
    const existing = set.handles.get(handle.uuid);
    if (existing !== undefined) {
      set.handles.put({ ...existing, physical_network: physicalNetwork });
      continue;
    }
    set.handles.put({
      uuid: handle.uuid,
      deployable_uuid: deployableUuid,
      device_uuid: deviceUuid,
      hostname,
      kind: handle.kind,
      address: handle.address,
      physical_network: physicalNetwork,
      mdev_type: handle.mdevType ?? null,
      slot: handle.slot ?? null,
      in_use: 0,
    });
  }
}
