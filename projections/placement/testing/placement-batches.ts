import { advanceCheckpoint, ensureProcessingTables, openSqliteSqlDatabase, restartCheckpoint, type SqlDatabase, type SqlExecutor } from '@ledger/processing';
import { applyProjectionBatches, type Batches } from '@ledger/processing/testing';
import { placementProjection } from '../placement.projection';
import { PLACEMENT_TABLES } from '../placement.schema';

/** Applies each batch in its own transaction, as the runtime does. */
export const applyBatches = (db: SqlDatabase, batches: Batches): Promise<void> => applyProjectionBatches(db, placementProjection, batches);

/** Stores the projection's checkpoint at `position`, as the runtime does with a batch (the queries' `position` reads it). */
export async function storeCheckpoint(db: SqlDatabase, position: number): Promise<void> {
  const { name, version } = placementProjection;
  await ensureProcessingTables(db);
  await db.transaction(async (tx) => {
    await restartCheckpoint(tx, name, version, new Date());
    await advanceCheckpoint(tx, name, { version, position: 0 }, { position }, new Date());
  });
}

export type PlacementSnapshot = Record<(typeof PLACEMENT_TABLES)[number], Record<string, unknown>[]>;

/** Every row, sorted here (collations differ between engines), integers as numbers (PostgreSQL returns BIGINT as text). */
export async function snapshotPlacement(db: SqlExecutor): Promise<PlacementSnapshot> {
  const snapshot = {} as PlacementSnapshot;
  for (const table of PLACEMENT_TABLES) {
    const rows = await db.all<Record<string, unknown>>(`SELECT * FROM ${table}`);
    const normalized = rows.map((row) =>
      Object.fromEntries(Object.entries(row).map(([column, value]) => [column, /position$|^count$/.test(column) && value !== null ? Number(value) : value])),
    );
    const key = (row: Record<string, unknown>) => String(row.job_id ?? row.deployable_uuid ?? row.device_uuid ?? row.hostname);
    snapshot[table] = normalized.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }
  return snapshot;
}

/** The read model that `batches` build on a fresh in-memory SQLite database. */
export async function buildPlacement(batches: Batches): Promise<PlacementSnapshot> {
  const db = await openSqliteSqlDatabase({ file: ':memory:' });
  try {
    await applyBatches(db, batches);
    return await snapshotPlacement(db);
  } finally {
    await db.close();
  }
}
