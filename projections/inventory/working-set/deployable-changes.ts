import type { RecordedEvent } from '@ledger/eventstore';
import { type AttachHandleSnapshot, type DeployableDescription, numericIdOf } from '@ledger/inventory';
import { deleteDiscoveredAttributes, syncDiscoveredAttributes } from './attribute-changes';
import type { DeployableRow } from './inventory-table-rows';
import type { InventoryWorkingSet } from './inventory-working-set';

/**
 * Inserts or updates a device's deployables, each stamped with the host
 * stream version of the event. An existing deployable keeps its identity
 * columns and `created_at`; `updated_at` moves only when what Placement sees
 * (resource class, count, traits, driver) changed. The discovered
 * attributes (`rc`, `trait<N>`) follow the resource class and traits; they
 * are rewritten only when those change, which keeps the common change (a
 * count) cheap.
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
    if (existing?.resource_class !== reported.resource_class || existing.traits !== reported.traits) {
      syncDiscoveredAttributes(set, deployable, at);
    }
    if (existing === undefined) {
      const program = set.regionPrograms.get(deployable.uuid);
      set.deployables.put({
        uuid: deployable.uuid,
        device_uuid: deviceUuid,
        hostname,
        name: deployable.name,
        rp_uuid: deployable.rpUuid,
        numeric_id: numericIdOf(deployable.uuid),
        ...reported,
        bitstream_id: program?.bitstream_id ?? null,
        function_id: program?.function_id ?? null,
        programmed_at: program?.programmed_at ?? null,
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

/** Deletes the device's deployables that `doomed` picks, each with its attach handles and discovered attributes. */
export function deleteDeployablesOf(set: InventoryWorkingSet, deviceUuid: string, doomed: (row: DeployableRow) => boolean): void {
  for (const uuid of set.deployables.keysIn(deviceUuid)) {
    if (!doomed(set.deployables.get(uuid)!)) continue;
    for (const handle of set.handles.keysIn(uuid)) set.handles.delete(handle);
    deleteDiscoveredAttributes(set, uuid);
    set.deployables.delete(uuid);
  }
}

/**
 * Inserts handles; a handle already there only takes the new physical
 * network. Claims live on the device stream: a new row takes `in_use` and
 * `claimed_by` from the claim its handle still holds, if any.
 */
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
    const claim = set.claims.get(handle.uuid);
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
      in_use: claim === undefined ? 0 : 1,
      claimed_by: claim?.arq_uuid ?? null,
      partition_handle: handle.partition ?? null,
    });
  }
}
