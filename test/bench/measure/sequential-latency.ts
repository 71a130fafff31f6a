/**
 * Calls `operation(0 … warmup + samples - 1)` one after another and returns
 * the latency in ms of the last `samples` calls; the first `warmup` calls
 * are untimed (JIT, caches, connection).
 */
export async function sequentialLatencies(warmup: number, samples: number, operation: (n: number) => Promise<void>): Promise<number[]> {
  for (let n = 0; n < warmup; n++) await operation(n);
  const latencies = new Array<number>(samples);
  for (let n = 0; n < samples; n++) {
    const started = performance.now();
    await operation(warmup + n);
    latencies[n] = performance.now() - started;
  }
  return latencies;
}
