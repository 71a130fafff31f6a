/** Nearest-rank percentile (p in 0…100) of unsorted samples; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export const perSecond = (count: number, ms: number): number => count / (ms / 1000);

/**
 * Runs `measure` (which returns a rate) `times` times and keeps the highest:
 * on a shared machine other work only slows a run down (see bestWindow).
 */
export async function bestOf(times: number, measure: () => Promise<number>): Promise<number> {
  let best = Number.NEGATIVE_INFINITY;
  for (let run = 0; run < Math.max(1, times); run++) best = Math.max(best, await measure());
  return best;
}
