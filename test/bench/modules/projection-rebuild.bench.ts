import { rebuildProcessor } from '@ledger/processing';
import { inventoryProjection } from '@ledger/projections/inventory';
import type { BenchModule } from '../bench-module';
import { perSecond } from '../measure/statistics';

/**
 * The inventory projection rebuilt from position 0 over the whole inventory
 * log with `rebuildProcessor` (its default batch size), into a fresh
 * read-model database of the same engine. Timed from the call to its return,
 * so setup, reset and every batch's commit are included.
 */
export const projectionRebuildBench: BenchModule = {
  records: [{ name: 'projection_rebuild', unit: 'events/s', ceiling: 'ceiling_read' }],
  async run(context) {
    const { store, events } = await context.inventoryLog();
    const db = await context.target.openReadModel('inventory-read-model');
    const started = performance.now();
    const progress = await rebuildProcessor(store, db, inventoryProjection);
    const ms = performance.now() - started;
    await db.close();
    if (progress.applied !== events.length) {
      throw new Error(`projection_rebuild applied ${progress.applied} events of the log's ${events.length}`);
    }
    const value = perSecond(progress.applied, ms);
    context.progress(`projection_rebuild ${Math.round(value)} events/s (${progress.applied} events)`);
    return [{ name: 'projection_rebuild', value }];
  },
};
