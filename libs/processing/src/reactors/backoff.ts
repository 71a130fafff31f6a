export interface BackoffPolicy {
  /** The ceiling of the first retry's delay. */
  readonly initialMs: number;
  /** The ceiling never grows past this. */
  readonly maxMs: number;
}

/**
 * The delay before retry number `attempt` (1-based): the ceiling doubles
 * from `initialMs` up to `maxMs`, and the delay is drawn between half the
 * ceiling and the ceiling ("equal jitter"), so that many reactors (or
 * replicas) that lost the same outside do not all come back at once.
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(Math.max(attempt - 1, 0), 40));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
