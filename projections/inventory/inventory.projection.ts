import type { RecordedEvent } from '@ledger/eventstore';
import {
  INVENTORY_EVENT_TYPES,
  type AttachHandleSnapshot,
  type DeployableDescription,
  type DeviceDescription,
  type InventoryEvent,
} from '@ledger/inventory';
import { canonicalJson } from '@ledger/kernel';
import type { Projection, SqlExecutor } from '@ledger/processing';
import { KeyListStatement, MultiRowInsert } from './multi-row';
import { createInventorySchema, emptyInventoryTables } from './inventory.schema';

/**
 * The inventory read model (hosts, devices, deployables, attach handles)
 * from the host and device streams. Every host-stream event first advances
 * `inv_hosts.stream_version` with a conditional UPDATE; when that changes no
 * row the event was applied before and is skipped, so redelivery is a no-op
 * without a read. Device-stream events are guarded by `maintenance_version`.
 */
export const inventoryProjection: Projection = {
  name: 'inventory',
  version: 1,
  handles: INVENTORY_EVENT_TYPES,
  filter: { categories: ['host', 'device'] },
  setup: createInventorySchema,
  reset: emptyInventoryTables,
  async apply(recorded, tx) {
    const event = recorded as unknown as RecordedEvent & InventoryEvent;
    const at = recorded.recordedAt;
    switch (event.type) {
      case 'inventory.HostRegistered':
        await tx.run(
          `INSERT INTO inv_hosts (hostname, registered_at, last_report_at, device_count, status, stream_version)
           VALUES ($1, $2, $3, 0, 'registered', $4) ON CONFLICT (hostname) DO NOTHING`,
          [event.data.hostname, event.data.registeredAt, at, recorded.version],
        );
        return;
      case 'inventory.DeviceDiscovered': {
        const { hostname, device } = event.data;
        if (!(await advanceHost(tx, hostname, recorded, 1))) return;
        await upsertDevice(tx, device.uuid, hostname, device, at);
        await upsertDeployables(tx, device.uuid, hostname, device.deployables, recorded);
        const handles = device.deployables.flatMap((deployable) =>
          deployable.attachHandles.map((handle) => handleRow(hostname, device.uuid, deployable.uuid, handle)),
        );
        await insertHandles.run(tx, handles);
        return;
      }
      case 'inventory.DeviceChanged': {
        const { hostname, deviceUuid, description, changedFields } = event.data;
        if (!(await advanceHost(tx, hostname, recorded, 0))) return;
        await updateDevice(tx, deviceUuid, description, at);
        if (!changedFields.some((field) => field.startsWith('deployables'))) return;
        await upsertDeployables(tx, deviceUuid, hostname, description.deployables, recorded);
        if (!changedFields.includes('deployables')) return;
        // Deployables this event did not list (older stream_version) are gone, with their handles.
        await tx.run(
          `DELETE FROM inv_attach_handles WHERE deployable_uuid IN
             (SELECT uuid FROM inv_deployables WHERE device_uuid = $1 AND stream_version < $2)`,
          [deviceUuid, recorded.version],
        );
        await tx.run('DELETE FROM inv_deployables WHERE device_uuid = $1 AND stream_version < $2', [deviceUuid, recorded.version]);
        return;
      }
      case 'inventory.DeviceRemoved': {
        const { hostname, deviceUuid } = event.data;
        if (!(await advanceHost(tx, hostname, recorded, -1))) return;
        await tx.run('UPDATE inv_devices SET removed = 1, updated_at = $2 WHERE uuid = $1', [deviceUuid, at]);
        await tx.run(
          'DELETE FROM inv_attach_handles WHERE deployable_uuid IN (SELECT uuid FROM inv_deployables WHERE device_uuid = $1)',
          [deviceUuid],
        );
        await tx.run('DELETE FROM inv_deployables WHERE device_uuid = $1', [deviceUuid]);
        return;
      }
      case 'inventory.AttachHandlesAdded': {
        const { hostname, deviceUuid, deployableUuid, handles } = event.data;
        if (!(await advanceHost(tx, hostname, recorded, 0))) return;
        await insertHandles.run(tx, handles.map((handle) => handleRow(hostname, deviceUuid, deployableUuid, handle)));
        return;
      }
      case 'inventory.AttachHandlesRemoved': {
        const { hostname, handleUuids } = event.data;
        if (!(await advanceHost(tx, hostname, recorded, 0))) return;
        await deleteHandles.run(tx, [], handleUuids);
        return;
      }
      case 'inventory.DeviceDisabled':
        await setMaintenance(tx, event.data.deviceUuid, 'maintaining', event.data.reason, recorded);
        return;
      case 'inventory.DeviceEnabled':
        await setMaintenance(tx, event.data.deviceUuid, 'enabled', null, recorded);
        return;
      default:
        return;
    }
  },
};

/** Claims a host-stream event: true when it is new for this read model (and records it), false when seen before. */
async function advanceHost(tx: SqlExecutor, hostname: string, event: RecordedEvent, deviceDelta: number): Promise<boolean> {
  const changed = await tx.run(
    `UPDATE inv_hosts SET stream_version = $2, last_report_at = $3, device_count = device_count + $4
     WHERE hostname = $1 AND stream_version < $2`,
    [hostname, event.version, event.recordedAt, deviceDelta],
  );
  return changed > 0;
}

async function upsertDevice(
  tx: SqlExecutor,
  uuid: string,
  hostname: string,
  device: Omit<DeviceDescription, 'deployables'>,
  at: string,
): Promise<void> {
  await tx.run(
    `INSERT INTO inv_devices (uuid, hostname, type, vendor_id, product_id, subsystem_vendor_id, subsystem_product_id, model,
       pci_address, board_info, vendor_board_info, driver, numa_node, capacity, removed, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 0, $15, $15)
     ON CONFLICT (uuid) DO UPDATE SET hostname = excluded.hostname, type = excluded.type, vendor_id = excluded.vendor_id,
       product_id = excluded.product_id, subsystem_vendor_id = excluded.subsystem_vendor_id,
       subsystem_product_id = excluded.subsystem_product_id, model = excluded.model, pci_address = excluded.pci_address,
       board_info = excluded.board_info, vendor_board_info = excluded.vendor_board_info, driver = excluded.driver,
       numa_node = excluded.numa_node, capacity = excluded.capacity, removed = 0,
       created_at = CASE WHEN inv_devices.removed = 1 THEN excluded.created_at ELSE inv_devices.created_at END,
       updated_at = excluded.updated_at`,
    [uuid, hostname, ...descriptionValues(device), at],
  );
}

/** A plain UPDATE (not the upsert): leaving `hostname` out of SET spares SQLite the index maintenance. */
async function updateDevice(tx: SqlExecutor, uuid: string, device: Omit<DeviceDescription, 'deployables'>, at: string): Promise<void> {
  await tx.run(
    `UPDATE inv_devices SET type = $2, vendor_id = $3, product_id = $4, subsystem_vendor_id = $5, subsystem_product_id = $6,
       model = $7, pci_address = $8, board_info = $9, vendor_board_info = $10, driver = $11, numa_node = $12, capacity = $13,
       updated_at = $14
     WHERE uuid = $1`,
    [uuid, ...descriptionValues(device), at],
  );
}

const descriptionValues = (device: Omit<DeviceDescription, 'deployables'>): unknown[] => [
  device.type,
  device.vendorId,
  device.productId,
  device.subsystemVendorId ?? null,
  device.subsystemProductId ?? null,
  device.model,
  device.pciAddress,
  canonicalJson(device.boardInfo),
  device.vendorBoardInfo ?? null,
  device.driver,
  device.numaNode,
  device.capacity === undefined ? null : canonicalJson(device.capacity),
];

const insertDeployables = new MultiRowInsert(
  `INSERT INTO inv_deployables (uuid, device_uuid, hostname, name, rp_uuid, resource_class, count, traits, driver_name,
     stream_version, created_at, updated_at)`,
  `ON CONFLICT (uuid) DO UPDATE SET resource_class = excluded.resource_class, count = excluded.count, traits = excluded.traits,
     driver_name = excluded.driver_name, stream_version = excluded.stream_version,
     updated_at = CASE
       WHEN inv_deployables.resource_class <> excluded.resource_class OR inv_deployables.count <> excluded.count
         OR inv_deployables.traits <> excluded.traits
         OR COALESCE(inv_deployables.driver_name, '') <> COALESCE(excluded.driver_name, '')
       THEN excluded.updated_at ELSE inv_deployables.updated_at END`,
  12,
);

async function upsertDeployables(
  tx: SqlExecutor,
  deviceUuid: string,
  hostname: string,
  deployables: readonly DeployableDescription[],
  event: RecordedEvent,
): Promise<void> {
  await insertDeployables.run(
    tx,
    deployables.map((deployable) => [
      deployable.uuid,
      deviceUuid,
      hostname,
      deployable.name,
      deployable.rpUuid,
      deployable.resourceClass,
      deployable.count,
      // Traits are sorted strings, so plain JSON is already canonical.
      JSON.stringify(deployable.traits),
      deployable.driverName ?? null,
      event.version,
      event.recordedAt,
      event.recordedAt,
    ]),
  );
}

/** A re-added handle keeps its `in_use` flag (claims live on the device stream). */
const insertHandles = new MultiRowInsert(
  'INSERT INTO inv_attach_handles (uuid, deployable_uuid, device_uuid, hostname, kind, address, physical_network, mdev_type, slot)',
  'ON CONFLICT (uuid) DO UPDATE SET physical_network = excluded.physical_network',
  9,
);

const deleteHandles = new KeyListStatement('DELETE FROM inv_attach_handles WHERE uuid IN ($IN)', 0);

const handleRow = (hostname: string, deviceUuid: string, deployableUuid: string, handle: AttachHandleSnapshot): unknown[] => [
  handle.uuid,
  deployableUuid,
  deviceUuid,
  hostname,
  handle.kind,
  handle.address,
  handle.physicalNetwork ?? null,
  handle.mdevType ?? null,
  handle.slot ?? null,
];

/**
 * Maintenance facts may in principle precede a device's first discovery in
 * the log; the row they create then waits, removed and without a host, for
 * the discovery that fills it in.
 */
async function setMaintenance(
  tx: SqlExecutor,
  deviceUuid: string,
  status: 'enabled' | 'maintaining',
  reason: string | null,
  event: RecordedEvent,
): Promise<void> {
  await tx.run(
    `INSERT INTO inv_devices (uuid, status, disabled_reason, maintenance_version, removed, updated_at)
     VALUES ($1, $2, $3, $4, 1, $5)
     ON CONFLICT (uuid) DO UPDATE SET status = excluded.status, disabled_reason = excluded.disabled_reason,
       maintenance_version = excluded.maintenance_version, updated_at = excluded.updated_at
     WHERE inv_devices.maintenance_version < excluded.maintenance_version`,
    [deviceUuid, status, reason, event.version, event.recordedAt],
  );
}
