/** One pair of runs: with the feature under test on, and off. */
export interface RunPair<T> {
  readonly on: T;
  readonly off: T;
}

/**
 * Runs `pairs` pairs, alternating which half runs first (on, off, off, on,
 * …), so that a machine speeding up or slowing down over the whole weighs
 * on both alike.
 */
export async function alternatePairs<T>(pairs: number, run: (on: boolean) => Promise<T>): Promise<RunPair<T>[]> {
  const result: RunPair<T>[] = [];
  for (let index = 0; index < pairs; index++) {
    const first = index % 2 === 0;
    const a = await run(first);
    const b = await run(!first);
    result.push(first ? { on: a, off: b } : { on: b, off: a });
  }
  return result;
}

/**
 * What the feature costs, in %: per pair, the rate lost, (off − on) / off,
 * or the cost added, (on − off) / off; then the median over the pairs, so
 * that one run spoiled by other work on a shared machine spoils one pair,
 * not the figure.
 */
export function medianOverheadPct<T>(pairs: readonly RunPair<T>[], value: (run: T) => number, kind: 'rate' | 'cost'): number {
  const overheads = pairs.map(({ on, off }) => (kind === 'rate' ? (value(off) - value(on)) / value(off) : (value(on) - value(off)) / value(off)) * 100);
  return median(overheads);
}

/** The middle value (the mean of the two middle ones for an even count); NaN when there are none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
