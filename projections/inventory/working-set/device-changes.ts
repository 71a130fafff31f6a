import type { RecordedEvent } from '@ledger/eventstore';
import type { DeviceCleaningEvent, DeviceDescription } from '@ledger/inventory';
import { canonicalJson } from '@ledger/kernel';
import type { DeviceRow } from './inventory-table-rows';
import type { InventoryWorkingSet } from './inventory-working-set';

type DescriptionColumns = Pick<
  DeviceRow,
  | 'type'
  | 'vendor_id'
  | 'product_id'
  | 'subsystem_vendor_id'
  | 'subsystem_product_id'
  | 'model'
  | 'pci_address'
  | 'board_info'
  | 'vendor_board_info'
  | 'driver'
  | 'numa_node'
  | 'capacity'
>;

const descriptionColumns = (device: Omit<DeviceDescription, 'deployables'>): DescriptionColumns => ({
  type: device.type,
  vendor_id: device.vendorId,
  product_id: device.productId,
  subsystem_vendor_id: device.subsystemVendorId ?? null,
  subsystem_product_id: device.subsystemProductId ?? null,
  model: device.model,
  pci_address: device.pciAddress,
  board_info: canonicalJson(device.boardInfo),
  vendor_board_info: device.vendorBoardInfo ?? null,
  driver: device.driver,
  numa_node: device.numaNode,
  capacity: device.capacity === undefined ? null : canonicalJson(device.capacity),
});

/**
 * A discovered device, new or back after its removal: a rediscovery keeps
 * the maintenance status (it lives on the device stream) and starts a new
 * `created_at`; a row that was not removed keeps its own.
 */
export function discoverDevice(
  set: InventoryWorkingSet,
  hostname: string,
  device: Omit<DeviceDescription, 'deployables'> & { readonly uuid: string },
  at: string,
): void {
  const existing = set.devices.get(device.uuid);
  set.devices.put({
    uuid: device.uuid,
    hostname,
    ...descriptionColumns(device),
    status: existing?.status ?? 'enabled',
    disabled_reason: existing?.disabled_reason ?? null,
    health: existing?.health ?? 'ok',
    health_reason: existing?.health_reason ?? null,
    clean_state: existing?.clean_state ?? 'clean',
    clean_reason: existing?.clean_reason ?? null,
    dirty_handles: existing?.dirty_handles ?? '{}',
    shell_interface_id: existing?.shell_interface_id ?? null,
    configured_vfs: existing?.configured_vfs ?? null,
    device_version: existing?.device_version ?? 0,
    removed: 0,
    created_at: existing === undefined || existing.removed === 1 ? at : existing.created_at,
    updated_at: at,
  });
}

/** A changed description of a known device; a device without a row stays without one. */
export function changeDevice(set: InventoryWorkingSet, uuid: string, device: Omit<DeviceDescription, 'deployables'>, at: string): void {
  const existing = set.devices.get(uuid);
  if (existing === undefined) return;
  set.devices.put({ ...existing, ...descriptionColumns(device), updated_at: at });
}

/** The row outlives the removal (removed = 1), so its maintenance status survives a rediscovery. */
export function removeDevice(set: InventoryWorkingSet, uuid: string, at: string): void {
  const existing = set.devices.get(uuid);
  if (existing === undefined) return;
  set.devices.put({ ...existing, removed: 1, updated_at: at });
}

/**
 * The device row stamped with a device-stream event's version, to be put
 * back with that event's changes; undefined when the event was applied
 * before. Device-stream facts may in principle precede the device's first
 * discovery in the log; the row they create then waits, removed and without
 * a host, for the discovery that fills it in.
 */
export function claimDeviceEvent(set: InventoryWorkingSet, uuid: string, event: RecordedEvent): DeviceRow | undefined {
  const existing = set.devices.get(uuid);
  if (existing !== undefined && existing.device_version >= event.version) return undefined;
  return { ...(existing ?? absentDevice(uuid)), device_version: event.version };
}

export function setMaintenance(
  set: InventoryWorkingSet,
  uuid: string,
  status: 'enabled' | 'maintaining',
  reason: string | null,
  event: RecordedEvent,
): void {
  const device = claimDeviceEvent(set, uuid, event);
  if (device !== undefined) set.devices.put({ ...device, status, disabled_reason: reason, updated_at: event.recordedAt });
}

/** Health lives on the device stream: like maintenance, it outlives a removal. */
export function setHealth(set: InventoryWorkingSet, uuid: string, health: string, reason: string | null, event: RecordedEvent): void {
  const device = claimDeviceEvent(set, uuid, event);
  if (device !== undefined) set.devices.put({ ...device, health, health_reason: reason, updated_at: event.recordedAt });
}

const absentDevice = (uuid: string): DeviceRow => ({
  uuid,
  hostname: null,
  type: null,
  vendor_id: null,
  product_id: null,
  subsystem_vendor_id: null,
  subsystem_product_id: null,
  model: null,
  pci_address: null,
  board_info: null,
  vendor_board_info: null,
  driver: null,
  numa_node: null,
  capacity: null,
  status: 'enabled',
  disabled_reason: null,
  health: 'ok',
  health_reason: null,
  clean_state: 'clean',
  clean_reason: null,
  dirty_handles: '{}',
  shell_interface_id: null,
  configured_vfs: null,
  device_version: 0,
  removed: 1,
  created_at: null,
  updated_at: null,
});

/** The statuses in the order an operator needs to hear them: a failed clean first. */
const CLEAN_STATES = ['clean-failed', 'cleaning', 'pending'] as const;

/** Cleaning lives on the device stream: the handles released and not yet clean, and the device's worst status among them. */
export function setCleaning(set: InventoryWorkingSet, uuid: string, event: RecordedEvent & DeviceCleaningEvent): void {
  const device = claimDeviceEvent(set, uuid, event);
  if (device === undefined) return;
  const dirty = JSON.parse(device.dirty_handles) as Record<string, string>;
  const status = { 'inventory.DeviceCleanPending': 'pending', 'inventory.DeviceCleaningStarted': 'cleaning', 'inventory.DeviceCleanFailed': 'clean-failed' }[event.type as string];
  for (const handle of event.data.handleUuids) {
    if (status === undefined) delete dirty[handle];
    else dirty[handle] = status;
  }
  const statuses = new Set(Object.values(dirty));
  const cleanState = CLEAN_STATES.find((state) => statuses.has(state)) ?? 'clean';
  const reason = event.type === 'inventory.DeviceCleanFailed' || event.type === 'inventory.DeviceCleanPending' ? event.data.reason : cleanState === 'clean' ? null : device.clean_reason;
  set.devices.put({ ...device, clean_state: cleanState, clean_reason: reason, dirty_handles: canonicalJson(dirty), updated_at: event.recordedAt });
}
