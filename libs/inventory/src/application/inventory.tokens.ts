/** Nest token of the host aggregates' AggregateCache (shared by the report and maintenance handlers). */
export const HOST_INVENTORY_CACHE = Symbol('HOST_INVENTORY_CACHE');

/** Nest token of the device maintenance aggregates' AggregateCache. */
export const DEVICE_MAINTENANCE_CACHE = Symbol('DEVICE_MAINTENANCE_CACHE');
