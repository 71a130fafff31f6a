/** First retry after about a second, doubling, never more than a minute apart (docs/agent-protocol.md). */
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 60_000;

/**
 * The wait before retry number `failures` (1 for the first): exponential up
 * to the cap, with ±20 % jitter so a fleet that lost the ledger together
 * does not come back in lock-step.
 */
export function backoffMs(failures: number, random: () => number = Math.random): number {
  const exponential = BACKOFF_BASE_MS * 2 ** Math.min(Math.max(failures, 1) - 1, 16);
  const jittered = exponential * (0.8 + 0.4 * random());
  return Math.round(Math.min(BACKOFF_CAP_MS, jittered));
}
