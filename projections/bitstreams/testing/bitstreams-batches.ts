import { openSqliteSqlDatabase, type SqlDatabase, type SqlExecutor } from '@ledger/processing';
import { applyProjectionBatches, type Batches } from '@ledger/processing/testing';
import { bitstreamsProjection } from '../bitstreams.projection';
import { BITSTREAM_TABLES } from '../bitstreams.schema';

/** Sets the projection up, then applies each batch in its own transaction, as the runtime does. */
export const applyBitstreamBatches = (db: SqlDatabase, batches: Batches): Promise<void> => applyProjectionBatches(db, bitstreamsProjection, batches);

/** Every row, in a fixed order, BIGINT as numbers (PostgreSQL returns strings): what two builds must agree on. */
export async function snapshotBitstreams(db: SqlExecutor): Promise<Record<string, Record<string, unknown>[]>> {
  const snapshot: Record<string, Record<string, unknown>[]> = {};
  for (const table of BITSTREAM_TABLES) {
    const rows = await db.all<Record<string, unknown>>(`SELECT * FROM ${table}`);
    snapshot[table] = rows
      .map((row) => ({ ...row, ...(row.size_bytes === undefined ? {} : { size_bytes: Number(row.size_bytes) }) }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return snapshot;
}

/** The read model that `batches` build on a fresh in-memory SQLite database. */
export async function buildBitstreams(batches: Batches) {
  const db = await openSqliteSqlDatabase({ file: ':memory:' });
  try {
    await applyBitstreamBatches(db, batches);
    return await snapshotBitstreams(db);
  } finally {
    await db.close();
  }
}
