/** Nest token of the job aggregates' AggregateCache (the handlers and JobReader share it). */
export const JOB_CACHE = Symbol('JOB_CACHE');

/** Nest token of the one StreamLocks every job command queues on (a result and a sweep of one job never race in a process). */
export const JOB_STREAM_LOCKS = Symbol('JOB_STREAM_LOCKS');

/** Nest token of the AggregateCache of hosts' driver facts. */
export const HOST_DRIVERS_CACHE = Symbol('HOST_DRIVERS_CACHE');
