import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { applyProjectionBatches, type Batches } from '@ledger/processing/testing';
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
