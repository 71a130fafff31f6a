/** Nest token of the quota aggregates' AggregateCache (shared by the handlers and QuotaReader). */
export const QUOTA_CACHE = Symbol('QUOTA_CACHE');

/** Nest token of the one StreamLocks every quota handler queues on. */
export const QUOTA_STREAM_LOCKS = Symbol('QUOTA_STREAM_LOCKS');
