import type { EventStore, NewEvent, RecordedEvent } from '@ledger/eventstore';
import type { BenchModule } from '../bench-module';
import { newEventFrom } from '../fixtures/event-payloads';
import { bestOf, perSecond } from '../measure/statistics';

const EVENTS_PER_APPEND = 100;

/**
 * One writer appending 100 events per call to one stream (exact expected
 * version), on a fresh store per round: as many events as the inventory log
 * holds, so it writes what ceiling_insert_tx writes.
 */
export const appendBatchBench: BenchModule = {
  records: [{ name: 'append_batch100', unit: 'events/s', ceiling: 'ceiling_insert_tx' }],
  async run(context) {
    const { events } = await context.inventoryLog();
    const appends = Math.max(1, Math.floor(events.length / EVENTS_PER_APPEND));
    const value = await bestOf(context.sizes.rounds, async () => {
      const store = await context.target.openEventStore('append-batch');
      const rate = await appendInBatches(store, batchesOf(events, appends));
      await store.close();
      return rate;
    });
    context.progress(`append_batch100 ${Math.round(value)} events/s (${appends} appends of ${EVENTS_PER_APPEND})`);
    return [{ name: 'append_batch100', value }];
  },
};

/** Built before the clock starts: the events with their fresh ids. */
const batchesOf = (log: readonly RecordedEvent[], appends: number): NewEvent[][] =>
  Array.from({ length: appends }, (_, batch) =>
    Array.from({ length: EVENTS_PER_APPEND }, (_, index) => newEventFrom(log, batch * EVENTS_PER_APPEND + index)),
  );

async function appendInBatches(store: EventStore, batches: readonly NewEvent[][]): Promise<number> {
  const started = performance.now();
  let version = 0;
  for (const batch of batches) {
    ({ version } = await store.append('bench-batch', batch, { expected: version }));
  }
  return perSecond(version, performance.now() - started);
}
