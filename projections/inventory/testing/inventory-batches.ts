import type { RecordedEvent } from '@ledger/eventstore';
import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { inventoryProjection } from '../inventory.projection';
import { type InventorySnapshot, snapshotInventory } from '../inventory.snapshot';

export type Batches = readonly (readonly RecordedEvent[])[];

export const oneBatch = (events: readonly RecordedEvent[]): Batches => [events];
/** How the projection applied events before it took batches: the reference the batched results must equal. */
export const onePerBatch = (events: readonly RecordedEvent[]): Batches => events.map((event) => [event]);
export const inBatchesOf = (size: number, events: readonly RecordedEvent[]): Batches =>
  Array.from({ length: Math.ceil(events.length / size) }, (_, index) => events.slice(index * size, (index + 1) * size));
export const everyBatchTwice = (batches: Batches): Batches => batches.flatMap((batch) => [batch, batch]);

/** Applies each batch in its own transaction, as the runtime does. */
export async function applyBatches(db: SqlDatabase, batches: Batches): Promise<void> {
  await db.transaction((tx) => inventoryProjection.setup(tx));
  for (const batch of batches) await db.transaction((tx) => inventoryProjection.apply(batch, tx));
}

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
