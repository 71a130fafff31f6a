import type { BlockedProvider } from '../domain/placement-steps';

/**
 * Where a host stands with Placement:
 * - `in-sync`: Placement holds what the ledger wants;
 * - `blocked-by-allocations`: providers the ledger no longer wants still
 *   hold allocations; their inventory is reserved and they go once freed;
 * - `waiting-for-compute-node`: Nova has not created the host's compute-node
 *   provider yet (or LEDGER_PLACEMENT_CREATE_COMPUTE_NODES is off);
 * - `placement-unavailable`: Placement could not be reached;
 * - `failed`: Placement refused something the reconciler cannot fix itself
 *   (detail says what), retried on every compare.
 */
export type HostSyncState = 'in-sync' | 'blocked-by-allocations' | 'waiting-for-compute-node' | 'placement-unavailable' | 'failed';

/** Every state, in the order operators read them. */
export const HOST_SYNC_STATES: readonly HostSyncState[] = ['in-sync', 'blocked-by-allocations', 'waiting-for-compute-node', 'placement-unavailable', 'failed'];

/** A count per state, all zero: a fleet view shows every state. */
export const noHostsByState = (): Record<HostSyncState, number> => Object.fromEntries(HOST_SYNC_STATES.map((state) => [state, 0])) as Record<HostSyncState, number>;

export interface DriftRepair {
  readonly at: string;
  /** What was found wrong, one line per write that fixed it. */
  readonly what: readonly string[];
}

export interface HostSyncStatus {
  readonly hostname: string;
  readonly state: HostSyncState;
  /** When the host entered this state (ISO 8601). */
  readonly since: string;
  /** The log position of the desired state last applied in full (0 before the first). */
  readonly position: number;
  readonly detail?: string;
  readonly blocked?: readonly BlockedProvider[];
  /** The last time a compare found Placement changed behind the ledger's back, and what it put right. */
  readonly lastRepair?: DriftRepair;
}

/** `next`, keeping the `since` of `previous` when the state did not change. */
export function continueStatus(previous: HostSyncStatus | undefined, next: HostSyncStatus): HostSyncStatus {
  if (previous === undefined || previous.state !== next.state) return next;
  return { ...next, since: previous.since };
}
