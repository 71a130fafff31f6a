/** One measured window of a closed loop. */
export interface ClosedLoopWindow {
  /** Operations completed inside the window. */
  readonly operations: number;
  readonly seconds: number;
  /** Latency of each of those operations, in ms. */
  readonly latenciesMs: number[];
}

export interface ClosedLoopTiming {
  readonly warmupMs: number;
  /** Length of each window. */
  readonly measureMs: number;
  /** Consecutive windows measured after the warm-up. */
  readonly rounds: number;
}

/**
 * Closed loop: `writers` callers each start their next operation as soon as
 * the previous one completes. They run through an untimed warm-up and then
 * `rounds` consecutive windows; an operation counts (with its latency) in
 * the window in which it completes. No operation starts after the last
 * window ends.
 */
export async function runClosedLoop(
  writers: number,
  timing: ClosedLoopTiming,
  operation: (writer: number) => Promise<void>,
): Promise<ClosedLoopWindow[]> {
  const windowsStart = performance.now() + timing.warmupMs;
  const windowsEnd = windowsStart + timing.rounds * timing.measureMs;
  const windows = Array.from({ length: timing.rounds }, () => ({ operations: 0, seconds: timing.measureMs / 1000, latenciesMs: [] as number[] }));
  const writer = async (index: number) => {
    for (let started = performance.now(); started < windowsEnd; started = performance.now()) {
      await operation(index);
      const finished = performance.now();
      const window = windows[Math.floor((finished - windowsStart) / timing.measureMs)];
      if (finished < windowsStart || window === undefined) continue;
      window.operations++;
      window.latenciesMs.push(finished - started);
    }
  };
  await Promise.all(Array.from({ length: writers }, (_, index) => writer(index)));
  return windows;
}

/**
 * The window with the highest throughput. The benchmarks run on shared
 * machines, where other work only ever slows a window down, so the best
 * window is the closest to what the code itself can do.
 */
export const bestWindow = (windows: readonly ClosedLoopWindow[]): ClosedLoopWindow =>
  windows.reduce((best, window) => (window.operations > best.operations ? window : best));

/** `12,345 / 13,002 / 9,876 /s`: every window's throughput, for progress lines. */
export const windowRates = (windows: readonly ClosedLoopWindow[]): string =>
  `${windows.map((window) => Math.round(window.operations / window.seconds).toLocaleString('en-US')).join(' / ')} /s`;
