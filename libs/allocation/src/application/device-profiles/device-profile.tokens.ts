/** Nest token of the device-profile aggregates' AggregateCache. */
export const DEVICE_PROFILE_CACHE = Symbol('DEVICE_PROFILE_CACHE');
