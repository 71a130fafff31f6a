import type { RecordedEvent } from '@ledger/eventstore';
import { type FoldStart, openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { applyProjectionBatches, type Batches, everyBatchTwice, oneBatch, onePerBatch } from '@ledger/processing/testing';
import { inventoryProjection } from '../inventory.projection';
import { type InventorySnapshot, snapshotInventory } from '../inventory.snapshot';
import { recordingExecutor } from './recording-executor';

/** Applies each batch in its own transaction, as the runtime does. */
export const applyBatches = (db: SqlDatabase, batches: Batches): Promise<void> => applyProjectionBatches(db, inventoryProjection, batches);

/** The read model that `batches` build on a fresh in-memory SQLite database. */
export async function buildInventory(batches: Batches): Promise<InventorySnapshot> {
  const db = await openSqliteSqlDatabase({ file: ':memory:' });
  try {
    await applyBatches(db, batches);
    return await snapshotInventory(db);
  } finally {
    await db.close();
  }
}

/**
 * The read model built by applying `committed` batch by batch, then folding
 * `folded` into one transaction (`inventoryProjection.fold`), a batch per
 * `add`, as a rebuild folds its reads.
 */
export async function buildInventoryFolded(committed: Batches, folded: Batches, start?: FoldStart): Promise<InventorySnapshot> {
  const db = await openSqliteSqlDatabase({ file: ':memory:' });
  try {
    await applyBatches(db, committed);
    await db.transaction(async (tx) => {
      const fold = inventoryProjection.fold!(tx, start);
      for (const batch of folded) await fold.add(batch);
      await fold.flush();
    });
    return await snapshotInventory(db);
  } finally {
    await db.close();
  }
}

/**
 * Builds the read model one event per batch (how the projection applied
 * events before it took batches) and expects the same tables from: the
 * events in one batch; that batch twice; two batches split at every point,
 * so each event meets rows both in memory and from the database; two
 * overlapping batches, where the second redelivers the end of the first;
 * and a fold of one event per read, alone (also as a rebuild's first fold,
 * which loads nothing from the empty tables), delivered twice, and after a
 * committed prefix (so its reads meet rows the fold changed and rows the
 * table holds).
 */
export async function expectBatchingChangesNothing(events: readonly RecordedEvent[]): Promise<InventorySnapshot> {
  const expected = await buildInventory(onePerBatch(events));
  expect(await buildInventory(oneBatch(events))).toEqual(expected);
  expect(await buildInventory(everyBatchTwice(oneBatch(events)))).toEqual(expected);
  expect(await buildInventoryFolded([], onePerBatch(events))).toEqual(expected);
  expect(await buildInventoryFolded([], everyBatchTwice(onePerBatch(events)))).toEqual(expected);
  expect(await buildInventoryFolded([], onePerBatch(events), { empty: true })).toEqual(expected);
  expect(await buildInventoryFolded([], everyBatchTwice(onePerBatch(events)), { empty: true })).toEqual(expected);
  for (let split = 1; split < events.length; split++) {
    expect(await buildInventory([events.slice(0, split), events.slice(split)])).toEqual(expected);
    expect(await buildInventory([events.slice(0, split + 1), events.slice(split - 1)])).toEqual(expected);
    expect(await buildInventoryFolded([events.slice(0, split)], onePerBatch(events.slice(split)))).toEqual(expected);
  }
  return expected;
}

/** The write statements (`run`, `runEach`) that applying `events` to `db` in one transaction makes. */
export async function writesOfApplying(db: SqlDatabase, events: readonly RecordedEvent[]): Promise<string[]> {
  return db.transaction(async (tx) => {
    const { executor, writes } = recordingExecutor(tx);
    await inventoryProjection.apply(events, executor);
    return writes;
  });
}
