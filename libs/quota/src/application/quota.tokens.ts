/** Nest token of the quota aggregates' AggregateCache (shared by the handlers and QuotaReader). */
export const QUOTA_CACHE = Symbol('QUOTA_CACHE');

/** Nest token of the quota commands' runner (QuotaCommands). */
export const QUOTA_COMMANDS = Symbol('QUOTA_COMMANDS');
