import { openSqliteSqlDatabase, type SqlDatabase, type SqlExecutor } from '@ledger/processing';
import { applyProjectionBatches, type Batches } from '@ledger/processing/testing';
import { quotaProjection } from '../quota.projection';
import { QUOTA_TABLES } from '../quota.schema';

/** Applies each batch in its own transaction, as the runtime does. */
export const applyBatches = (db: SqlDatabase, batches: Batches): Promise<void> => applyProjectionBatches(db, quotaProjection, batches);

export type QuotaSnapshot = Record<(typeof QUOTA_TABLES)[number], Record<string, unknown>[]>;

/**
 * Every row of the read model, sorted here (collations differ between the
 * engines) and with BIGINT columns as numbers (PostgreSQL returns strings).
 */
export async function snapshotQuota(db: SqlExecutor): Promise<QuotaSnapshot> {
  const snapshot = {} as QuotaSnapshot;
  for (const table of QUOTA_TABLES) {
    const rows = await db.all<Record<string, unknown>>(`SELECT * FROM ${table}`);
    const normalized = rows.map((row) =>
      Object.fromEntries(Object.entries(row).map(([column, value]) => [column, /^(limit_value|used|stream_version)$/.test(column) ? Number(value) : value])),
    );
    const sortKey = (row: Record<string, unknown>) => `${row.project}\u0000${row.resource ?? row.consumer_id ?? ''}`;
    snapshot[table] = normalized.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
  }
  return snapshot;
}

/** The read model that `batches` build on a fresh in-memory SQLite database. */
export async function buildQuota(batches: Batches): Promise<QuotaSnapshot> {
  const db = await openSqliteSqlDatabase({ file: ':memory:' });
  try {
    await applyBatches(db, batches);
    return await snapshotQuota(db);
  } finally {
    await db.close();
  }
}
