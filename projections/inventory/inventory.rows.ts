import type {
  AttachHandleView,
  AttributeView,
  DeployableBindingView,
  DeployableView,
  DeviceView,
  HandleClaimView,
  HostView,
} from './inventory.views';
import { agentStatusOf, isoOfMs } from './live-view/live-view.views';

export type Row = Record<string, unknown>;

export const toHostView = (row: Row): HostView => ({
  hostname: row.hostname as string,
  registeredAt: row.registered_at as string,
  lastReportAt: row.last_report_at as string,
  deviceCount: Number(row.device_count),
  status: row.status as string,
  agentStatus: agentStatusOf(row.agent_lost_at, row.last_seen_ms),
  lastSeenAt: isoOfMs(row.last_seen_ms),
  fenced: row.fenced_at !== null && row.fenced_at !== undefined,
  fencedReason: (row.fenced_reason as string | null) ?? null,
  fencedAt: (row.fenced_at as string | null) ?? null,
});

type DeviceReaders = { readonly [K in keyof DeviceView]: (row: Row) => DeviceView[K] };

/** How each field of a DeviceView is read from its row (the field's column is its snake_case name). */
const DEVICE_READERS: DeviceReaders = {
  uuid: (row) => row.uuid as string,
  hostname: (row) => row.hostname as string,
  type: (row) => row.type as string,
  vendorId: (row) => row.vendor_id as string,
  productId: (row) => row.product_id as string,
  subsystemVendorId: (row) => (row.subsystem_vendor_id as string | null) ?? null,
  subsystemProductId: (row) => (row.subsystem_product_id as string | null) ?? null,
  model: (row) => row.model as string,
  pciAddress: (row) => row.pci_address as string,
  boardInfo: (row) => JSON.parse(row.board_info as string) as Record<string, string>,
  vendorBoardInfo: (row) => (row.vendor_board_info as string | null) ?? null,
  driver: (row) => (row.driver as string | null) ?? null,
  numaNode: (row) => (row.numa_node === null || row.numa_node === undefined ? null : Number(row.numa_node)),
  capacity: (row) => (row.capacity ? (JSON.parse(row.capacity as string) as Record<string, number>) : null),
  status: (row) => row.status as DeviceView['status'],
  disabledReason: (row) => (row.disabled_reason as string | null) ?? null,
  health: (row) => ((row.health as string | null) ?? 'ok') as DeviceView['health'],
  healthReason: (row) => (row.health_reason as string | null) ?? null,
  cleanState: (row) => ((row.clean_state as string | null) ?? 'clean') as DeviceView['cleanState'],
  cleanReason: (row) => (row.clean_reason as string | null) ?? null,
  dirtyHandles: (row) => JSON.parse((row.dirty_handles as string | null) ?? '{}') as Record<string, string>,
  shellInterfaceId: (row) => (row.shell_interface_id as string | null) ?? null,
  configuredVfs: (row) => (row.configured_vfs === null || row.configured_vfs === undefined ? null : Number(row.configured_vfs)),
  createdAt: (row) => row.created_at as string,
  updatedAt: (row) => row.updated_at as string,
};

export type DeviceField = keyof DeviceView;

export const DEVICE_FIELDS = Object.keys(DEVICE_READERS) as DeviceField[];

export const isDeviceField = (name: string): name is DeviceField => Object.hasOwn(DEVICE_READERS, name);

const DEVICE_COLUMNS = Object.fromEntries(DEVICE_FIELDS.map((field) => [field, field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)])) as Record<DeviceField, string>;

/** The column of a DeviceView field (its snake_case name, worked out once: a fleet page asks for it per host). */
export const deviceColumnOf = (field: DeviceField): string => DEVICE_COLUMNS[field];

/** The fields `fields` of a device row read with only their columns. */
export function toDeviceFields<K extends DeviceField>(row: Row, fields: readonly K[]): Pick<DeviceView, K> {
  const view: Partial<DeviceView> = {};
  for (const field of fields) (view as Record<K, unknown>)[field] = DEVICE_READERS[field](row);
  return view as Pick<DeviceView, K>;
}

export const toDeviceView = (row: Row): DeviceView => toDeviceFields(row, DEVICE_FIELDS);

export const toDeployableView = (row: Row): DeployableView => ({
  uuid: row.uuid as string,
  deviceUuid: row.device_uuid as string,
  hostname: row.hostname as string,
  name: row.name as string,
  rpUuid: row.rp_uuid as string,
  resourceClass: row.resource_class as string,
  count: Number(row.count),
  traits: JSON.parse(row.traits as string) as string[],
  driverName: (row.driver_name as string | null) ?? null,
  bitstreamId: (row.bitstream_id as string | null) ?? null,
  functionId: (row.function_id as string | null) ?? null,
  programmedAt: (row.programmed_at as string | null) ?? null,
  createdAt: row.created_at as string,
  updatedAt: row.updated_at as string,
});

export const toAttachHandleView = (row: Row): AttachHandleView => ({
  uuid: row.uuid as string,
  deployableUuid: row.deployable_uuid as string,
  deviceUuid: row.device_uuid as string,
  hostname: row.hostname as string,
  kind: row.kind as AttachHandleView['kind'],
  address: row.address as string,
  physicalNetwork: (row.physical_network as string | null) ?? null,
  mdevType: (row.mdev_type as string | null) ?? null,
  slot: row.slot === null || row.slot === undefined ? null : Number(row.slot),
  inUse: Number(row.in_use) === 1,
  claimedBy: (row.claimed_by as string | null) ?? null,
  partition: (row.partition_handle as string | null) ?? null,
});

/**
 * From a deployable row joined with its device's `status`, `health`,
 * `health_reason` and `capacity` (as device_*) and its host's `agent_lost_at`.
 */
export const toDeployableBindingView = (row: Row): DeployableBindingView => {
  const { createdAt: _created, updatedAt: _updated, ...deployable } = toDeployableView(row);
  return {
    ...deployable,
    deviceStatus: row.device_status as DeployableBindingView['deviceStatus'],
    deviceHealth: ((row.device_health as string | null) ?? 'ok') as DeployableBindingView['deviceHealth'],
    deviceHealthReason: (row.device_health_reason as string | null) ?? null,
    agentLost: row.agent_lost_at !== null && row.agent_lost_at !== undefined,
    deviceCapacity: row.device_capacity ? (JSON.parse(row.device_capacity as string) as Record<string, number>) : null,
  };
};

export const toHandleClaimView = (row: Row): HandleClaimView => ({
  handleUuid: row.handle_uuid as string,
  arqUuid: row.arq_uuid as string,
  deviceUuid: row.device_uuid as string,
  deployableUuid: row.deployable_uuid as string,
});

export const toAttributeView = (row: Row): AttributeView => ({
  uuid: row.uuid as string,
  deployableUuid: row.deployable_uuid as string,
  deployableId: Number(row.deployable_id),
  key: row.key as string,
  value: row.value as string,
  origin: row.origin as AttributeView['origin'],
  createdAt: row.created_at as string,
  updatedAt: row.updated_at as string,
});
