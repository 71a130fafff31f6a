import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { plainRowFrom } from '../fixtures/event-payloads';
import { bestWindow, runClosedLoop, windowRates } from '../measure/closed-loop';
import { bestOf, perSecond } from '../measure/statistics';
import type { PlainTable } from '../targets/plain-table';

/**
 * What the engine does without the store: event-like rows (the inventory
 * log's own payloads) written to and read from a plain table with the raw
 * driver, on the same engine and machine in the same run.
 */
export const ceilingsBench: BenchModule = {
  records: [
    { name: 'ceiling_insert_commit', unit: 'events/s' },
    { name: 'ceiling_insert_tx', unit: 'events/s' },
    { name: 'ceiling_read', unit: 'events/s' },
  ],
  async run(context, wanted) {
    const results: Measurement[] = [];
    if (wanted.has('ceiling_insert_commit')) results.push(await insertCommitCeiling(context));
    if (wanted.has('ceiling_insert_tx') || wanted.has('ceiling_read')) {
      results.push(...(await insertTxAndReadCeilings(context, wanted)));
    }
    return results;
  },
};

/** One insert per commit, one writer, closed loop. */
async function insertCommitCeiling(context: BenchContext): Promise<Measurement> {
  const { events } = await context.inventoryLog();
  const table = await context.target.openPlainTable('ceiling-commit');
  let n = 0;
  const windows = await runClosedLoop(1, context.sizes, () => {
    n++;
    return table.insertAndCommit(plainRowFrom(events, n, 'plain-1', n));
  });
  await table.close();
  const best = bestWindow(windows);
  const value = best.operations / best.seconds;
  context.progress(`ceiling_insert_commit ${Math.round(value)} events/s (best of windows ${windowRates(windows)})`);
  return { name: 'ceiling_insert_commit', value };
}

/** Every event of the log inserted in one transaction (a fresh table per round), then read back whole. */
async function insertTxAndReadCeilings(context: BenchContext, wanted: ReadonlySet<string>): Promise<Measurement[]> {
  const { events } = await context.inventoryLog();
  let table: PlainTable | undefined;
  const insertRate = await bestOf(context.sizes.rounds, async () => {
    await table?.close();
    table = await context.target.openPlainTable('ceiling-tx');
    const rows = events.map((event, n) => plainRowFrom(events, n, event.stream, event.version));
    const started = performance.now();
    await table.insertInOneTransaction(rows);
    return perSecond(rows.length, performance.now() - started);
  });
  context.progress(`ceiling_insert_tx ${Math.round(insertRate)} events/s (${events.length} rows in one transaction)`);
  const results: Measurement[] = [];
  if (wanted.has('ceiling_insert_tx')) results.push({ name: 'ceiling_insert_tx', value: insertRate });
  if (wanted.has('ceiling_read')) {
    const filled = table as PlainTable;
    const readRate = await bestOf(context.sizes.rounds, async () => {
      const started = performance.now();
      const count = await filled.readAllParsed();
      return perSecond(count, performance.now() - started);
    });
    context.progress(`ceiling_read ${Math.round(readRate)} events/s`);
    results.push({ name: 'ceiling_read', value: readRate });
  }
  await table?.close();
  return results;
}
