/**
 * Rows of the inventory tables as they are stored (see inventory.schema.ts),
 * column for column: the batch loads them, changes them in memory and
 * writes them back whole.
 */
export interface HostRow {
  hostname: string;
  registered_at: string;
  last_report_at: string;
  device_count: number;
  status: string;
  stream_version: number;
  /** `detectedAt` of the AgentLost in force; null while the agent is up. */
  agent_lost_at: string | null;
  /** The HostFenced in force (its reason and `at`); both null while the host is not fenced. */
  fenced_reason: string | null;
  fenced_at: string | null;
}

/** Description columns are null on a row that only a maintenance fact created. */
export interface DeviceRow {
  uuid: string;
  hostname: string | null;
  type: string | null;
  vendor_id: string | null;
  product_id: string | null;
  subsystem_vendor_id: string | null;
  subsystem_product_id: string | null;
  model: string | null;
  pci_address: string | null;
  board_info: string | null;
  vendor_board_info: string | null;
  driver: string | null;
  numa_node: number | null;
  capacity: string | null;
  status: string;
  disabled_reason: string | null;
  /** Recorded health (device stream): `ok`, `degraded` or `failed`. */
  health: string;
  health_reason: string | null;
  /** `clean`, or the worst status of its released handles not yet clean: `pending`, `cleaning`, `clean-failed` (device stream). */
  clean_state: string;
  /** Why the last clean failed, or why handles are pending (the fence's reason); null when clean. */
  clean_reason: string | null;
  /** Canonical JSON `{handleUuid: status}` of the released handles not yet clean. */
  dirty_handles: string;
  /** The shell's interface id read back by the last ShellProgrammed; null before one. */
  shell_interface_id: string | null;
  /** The VF count of the last VfsConfigured; null before one (the report's handles say what is there). */
  configured_vfs: number | null;
  device_version: number;
  removed: number;
  created_at: string | null;
  updated_at: string | null;
}

export interface DeployableRow {
  uuid: string;
  device_uuid: string;
  hostname: string;
  name: string;
  rp_uuid: string;
  numeric_id: number;
  resource_class: string;
  count: number;
  traits: string;
  driver_name: string | null;
  /** From inv_region_programs: what the region holds. */
  bitstream_id: string | null;
  function_id: string | null;
  programmed_at: string | null;
  stream_version: number;
  created_at: string;
  updated_at: string;
}

/** What a region holds as its device stream says: the function last read back and, when known, the registered bitstream. */
export interface RegionProgramRow {
  deployable_uuid: string;
  device_uuid: string;
  bitstream_id: string | null;
  function_id: string | null;
  programmed_at: string | null;
}

export interface AttachHandleRow {
  uuid: string;
  deployable_uuid: string;
  device_uuid: string;
  hostname: string;
  kind: string;
  address: string;
  physical_network: string | null;
  mdev_type: string | null;
  slot: number | null;
  in_use: number;
  claimed_by: string | null;
  /** A partition's own handle (MIG device UUID, mdev UUID, region id); null on other handles. */
  partition_handle: string | null;
}

export interface HandleClaimRow {
  handle_uuid: string;
  arq_uuid: string;
  device_uuid: string;
  deployable_uuid: string;
}

export interface AttributeRow {
  uuid: string;
  deployable_uuid: string;
  deployable_id: number;
  key: string;
  value: string;
  origin: 'discovered' | 'operator';
  /** The attribute stream's version for an operator's attribute; 0 for a discovered one. */
  stream_version: number;
  deleted: number;
  created_at: string;
  updated_at: string;
}

export const HOST_COLUMNS: readonly (keyof HostRow)[] = [
  'hostname',
  'registered_at',
  'last_report_at',
  'device_count',
  'status',
  'stream_version',
  'agent_lost_at',
  'fenced_reason',
  'fenced_at',
];

export const DEVICE_COLUMNS: readonly (keyof DeviceRow)[] = [
  'uuid',
  'hostname',
  'type',
  'vendor_id',
  'product_id',
  'subsystem_vendor_id',
  'subsystem_product_id',
  'model',
  'pci_address',
  'board_info',
  'vendor_board_info',
  'driver',
  'numa_node',
  'capacity',
  'status',
  'disabled_reason',
  'health',
  'health_reason',
  'clean_state',
  'clean_reason',
  'dirty_handles',
  'shell_interface_id',
  'configured_vfs',
  'device_version',
  'removed',
  'created_at',
  'updated_at',
];

export const DEPLOYABLE_COLUMNS: readonly (keyof DeployableRow)[] = [
  'uuid',
  'device_uuid',
  'hostname',
  'name',
  'rp_uuid',
  'numeric_id',
  'resource_class',
  'count',
  'traits',
  'driver_name',
  'bitstream_id',
  'function_id',
  'programmed_at',
  'stream_version',
  'created_at',
  'updated_at',
];

export const REGION_PROGRAM_COLUMNS: readonly (keyof RegionProgramRow)[] = ['deployable_uuid', 'device_uuid', 'bitstream_id', 'function_id', 'programmed_at'];

export const ATTACH_HANDLE_COLUMNS: readonly (keyof AttachHandleRow)[] = [
  'uuid',
  'deployable_uuid',
  'device_uuid',
  'hostname',
  'kind',
  'address',
  'physical_network',
  'mdev_type',
  'slot',
  'in_use',
  'claimed_by',
  'partition_handle',
];

export const HANDLE_CLAIM_COLUMNS: readonly (keyof HandleClaimRow)[] = ['handle_uuid', 'arq_uuid', 'device_uuid', 'deployable_uuid'];

export const ATTRIBUTE_COLUMNS: readonly (keyof AttributeRow)[] = [
  'uuid',
  'deployable_uuid',
  'deployable_id',
  'key',
  'value',
  'origin',
  'stream_version',
  'deleted',
  'created_at',
  'updated_at',
];
