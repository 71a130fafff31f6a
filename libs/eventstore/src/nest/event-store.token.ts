/** Nest injection token for the EventStore port (provided by the app's composition root). */
export const EVENT_STORE = Symbol('EVENT_STORE');

/**
 * Nest injection token of the process's one StreamLocks (provided beside EVENT_STORE): every command
 * runner and multi-stream decision queues on it, so a bind and a device command on one device wait for
 * each other instead of racing (one losing the version check and retrying).
 */
export const STREAM_LOCKS = Symbol('STREAM_LOCKS');

/**
 * Nest injection token of the process's StreamFreshness (a StreamVersionWatch over the hosts' streams, provided
 * beside EVENT_STORE; optional): lets the agents' frequent calls trust a cached host state without reading its tail.
 */
export const STREAM_FRESHNESS = Symbol('STREAM_FRESHNESS');
