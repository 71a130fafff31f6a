import type { BenchModule } from '../bench-module';
import { readWholeLog } from '../fixtures/read-whole-log';
import { bestOf, perSecond } from '../measure/statistics';

const BATCH = 1000;

/** `readAll` in batches of 1000 over the whole inventory log, from position 0 to the head. */
export const readAllBench: BenchModule = {
  records: [{ name: 'read_all', unit: 'events/s', ceiling: 'ceiling_read' }],
  async run(context) {
    const { store } = await context.inventoryLog();
    const value = await bestOf(context.sizes.rounds, async () => {
      const started = performance.now();
      const events = await readWholeLog(store, BATCH);
      return perSecond(events.length, performance.now() - started);
    });
    context.progress(`read_all ${Math.round(value)} events/s`);
    return [{ name: 'read_all', value }];
  },
};
