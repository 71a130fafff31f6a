/** Nest token of the host aggregates' AggregateCache (shared by the report and maintenance handlers). */
export const HOST_INVENTORY_CACHE = Symbol('HOST_INVENTORY_CACHE');

/** Nest token of the device aggregates' AggregateCache (maintenance and handle claims). */
export const DEVICE_CACHE = Symbol('DEVICE_CACHE');

/** Nest token of the UnchangedReportMemo (the report handler writes it, the unchanged report's short cut reads it). */
export const UNCHANGED_REPORT_MEMO = Symbol('UNCHANGED_REPORT_MEMO');

/** Nest token of the device commands' runner (DeviceCommands). */
export const DEVICE_COMMANDS = Symbol('DEVICE_COMMANDS');

/** Nest token of the host liveness commands' runner (HostLivenessCommands). */
export const HOST_LIVENESS_COMMANDS = Symbol('HOST_LIVENESS_COMMANDS');
/** Fence and unfence on hosts' streams (HostFenceCommands). */
export const HOST_FENCE_COMMANDS = Symbol('HOST_FENCE_COMMANDS');

/** Nest token of the devices' maintenance (DeviceMaintenance: the host check, then the device command). */
export const DEVICE_MAINTENANCE = Symbol('DEVICE_MAINTENANCE');

/** Nest token of the DeviceCleaningPolicy (which device types clean after a release), supplied by the app from its settings and read model. */
export const DEVICE_CLEANING_POLICY = Symbol('DEVICE_CLEANING_POLICY');

/** Nest token of LEDGER_PARTITION_RECLAIM's idle wait in ms (`PartitionReclaimIdleMs`; null or absent: partitions carved on demand are kept). */
export const PARTITION_RECLAIM_IDLE_MS = Symbol('PARTITION_RECLAIM_IDLE_MS');
export type PartitionReclaimIdleMs = number | null;

/** Nest token of the HealthPolicy that judges health reports (the app loads it from LEDGER_HEALTH_POLICY_FILE; absent: the default policy). */
export const HEALTH_POLICY = Symbol('HEALTH_POLICY');
