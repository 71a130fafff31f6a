import type { EventStoreObserver } from '@ledger/eventstore';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { newEventFrom } from '../fixtures/event-payloads';
import { bestWindow, runClosedLoop, windowRates, type ClosedLoopWindow } from '../measure/closed-loop';
import { percentile } from '../measure/statistics';

/** Writer counts measured; the latency records come from the largest. */
const WRITERS = [1, 16, 64] as const;
const LATENCY_WRITERS = 64;

/**
 * N concurrent writers, each appending one event per call to its own stream
 * with the exact expected version, closed loop, on a fresh store per N. The
 * best window is reported; the latency percentiles are those of the
 * append_64 run's best window.
 */
export const appendConcurrencyBench: BenchModule = {
  records: [
    ...WRITERS.map((writers) => ({ name: `append_${writers}`, unit: 'events/s', ceiling: 'ceiling_insert_commit' })),
    { name: 'append_p50_ms', unit: 'ms', min: 0 },
    { name: 'append_p99_ms', unit: 'ms', min: 0 },
  ],
  async run(context, wanted) {
    const results: Measurement[] = [];
    const wantsLatency = wanted.has('append_p50_ms') || wanted.has('append_p99_ms');
    for (const writers of WRITERS) {
      const name = `append_${writers}`;
      const forLatency = writers === LATENCY_WRITERS && wantsLatency;
      if (!wanted.has(name) && !forLatency) continue;
      const windows = await appendClosedLoop(context, writers);
      const run = bestWindow(windows);
      const value = run.operations / run.seconds;
      const p50 = percentile(run.latenciesMs, 50);
      const p99 = percentile(run.latenciesMs, 99);
      context.progress(`${name} ${Math.round(value)} events/s, p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms (best of windows ${windowRates(windows)})`);
      if (wanted.has(name)) results.push({ name, value });
      if (forLatency) {
        if (wanted.has('append_p50_ms')) results.push({ name: 'append_p50_ms', value: p50 });
        if (wanted.has('append_p99_ms')) results.push({ name: 'append_p99_ms', value: p99 });
      }
    }
    return results;
  },
};

/** `writers` closed-loop writers on a fresh store named `label` (told to `observer`, when given): the windows of append_<writers>. */
export async function appendClosedLoop(context: BenchContext, writers: number, label = `append-${writers}`, observer?: EventStoreObserver): Promise<ClosedLoopWindow[]> {
  const { events } = await context.inventoryLog();
  const store = await context.target.openEventStore(label, observer);
  const versions = new Array<number>(writers).fill(0);
  let n = 0;
  const windows = await runClosedLoop(writers, context.sizes, async (writer) => {
    const result = await store.append(`bench-w${writer}`, [newEventFrom(events, n++)], { expected: versions[writer] });
    versions[writer] = result.version;
  });
  await store.close();
  return windows;
}
