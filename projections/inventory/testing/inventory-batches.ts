import type { RecordedEvent } from '@ledger/eventstore';
import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { applyProjectionBatches, type Batches, everyBatchTwice, oneBatch, onePerBatch } from '@ledger/processing/testing';
import { inventoryProjection } from '../inventory.projection';
import { type InventorySnapshot, snapshotInventory } from '../inventory.snapshot';

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
 * Builds the read model one event per batch (how the projection applied
 * events before it took batches) and expects the same tables from: the
 * events in one batch; that batch twice; two batches split at every point,
 * so each event meets rows both in memory and from the database; and two
 * overlapping batches, where the second redelivers the end of the first.
 */
export async function expectBatchingChangesNothing(events: readonly RecordedEvent[]): Promise<InventorySnapshot> {
  const expected = await buildInventory(onePerBatch(events));
  expect(await buildInventory(oneBatch(events))).toEqual(expected);
  expect(await buildInventory(everyBatchTwice(oneBatch(events)))).toEqual(expected);
  for (let split = 1; split < events.length; split++) {
    expect(await buildInventory([events.slice(0, split), events.slice(split)])).toEqual(expected);
    expect(await buildInventory([events.slice(0, split + 1), events.slice(split - 1)])).toEqual(expected);
  }
  return expected;
}
