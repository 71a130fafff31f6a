import { openSqliteSqlDatabase, type SqlDatabase, type SqlExecutor } from '@ledger/processing';
import { applyProjectionBatches, type Batches } from '@ledger/processing/testing';
import { jobsProjection } from '../jobs.projection';
import { JOBS_TABLES } from '../jobs.schema';

/** Applies each batch in its own transaction, as the runtime does. */
export const applyBatches = (db: SqlDatabase, batches: Batches): Promise<void> => applyProjectionBatches(db, jobsProjection, batches);

export type JobsSnapshot = Record<(typeof JOBS_TABLES)[number], Record<string, unknown>[]>;

/** Every row, sorted here (collations differ between engines), integers as numbers (PostgreSQL returns BIGINT as text). */
export async function snapshotJobs(db: SqlExecutor): Promise<JobsSnapshot> {
  const snapshot = {} as JobsSnapshot;
  for (const table of JOBS_TABLES) {
    const rows = await db.all<Record<string, unknown>>(`SELECT * FROM ${table}`);
    const normalized = rows.map((row) =>
      Object.fromEntries(Object.entries(row).map(([column, value]) => [column, /^(requested_position|stream_version|attempt|timeout_seconds|driver_fact)$/.test(column) ? Number(value) : value])),
    );
    const key = (row: Record<string, unknown>) => `${row.job_id ?? ''}\u0000${row.hostname}\u0000${row.driver ?? ''}`;
    snapshot[table] = normalized.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }
  return snapshot;
}

/** The read model that `batches` build on a fresh in-memory SQLite database. */
export async function buildJobs(batches: Batches): Promise<JobsSnapshot> {
  const db = await openSqliteSqlDatabase({ file: ':memory:' });
  try {
    await applyBatches(db, batches);
    return await snapshotJobs(db);
  } finally {
    await db.close();
  }
}
