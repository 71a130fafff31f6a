import type { SqlExecutor } from '../sql/sql-database.port';

const TABLES = [
  `CREATE TABLE IF NOT EXISTS processor_checkpoints (
     name TEXT PRIMARY KEY,
     version INTEGER NOT NULL,
     position BIGINT NOT NULL,
     updated_at TEXT NOT NULL,
     hash TEXT
   )`,
  `CREATE TABLE IF NOT EXISTS processor_leases (
     name TEXT PRIMARY KEY,
     owner TEXT NOT NULL,
     expires_at BIGINT NOT NULL
   )`,
];

/**
 * Creates the checkpoint and lease tables, which live beside the read models
 * so that a batch, its checkpoint and the lease fence commit together.
 */
export async function ensureProcessingTables(db: SqlExecutor): Promise<void> {
  for (const sql of TABLES) {
    try {
      await db.run(sql);
    } catch {
      // Two PostgreSQL processes creating the same table at once: one fails
      // on the catalog's unique index although IF NOT EXISTS was given. The
      // table exists now, which the second attempt confirms.
      await db.run(sql);
    }
  }
  // Read models written before checkpoints carried the chain hash of their event lack the column; their rows keep a
  // NULL hash (nothing to compare) until the next batch stores one.
  await addColumnIfAbsent(db, 'processor_checkpoints', 'hash', 'TEXT');
}

/**
 * Adds `column` to `table` where a table made before it lacks it, outside a
 * transaction (a failed probe would abort one on PostgreSQL). SQLite has no
 * ADD COLUMN IF NOT EXISTS, hence the probe; a concurrent process adding it
 * first is also fine. Existing rows keep NULL in it.
 */
export async function addColumnIfAbsent(db: SqlExecutor, table: string, column: string, type: string): Promise<void> {
  const hasColumn = () =>
    db.get(`SELECT ${column} FROM ${table} WHERE 1 = 0`).then(
      () => true,
      () => false,
    );
  if (await hasColumn()) return;
  try {
    await db.run(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  } catch (error) {
    if (!(await hasColumn())) throw error;
  }
}
