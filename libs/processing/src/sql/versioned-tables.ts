import type { SqlExecutor } from './sql-database.port';

/** A read model's tables and the version of their shape. */
export interface VersionedTables {
  /** A one-row table that remembers the version the tables were created at (`inv_schema`, `pl_schema`). */
  readonly versionTable: string;
  /** Bump with any change to the statements, together with the projection's own version (which rebuilds the content). */
  readonly version: number;
  /** Every table the statements create, dropped when the stored version differs. */
  readonly tables: readonly string[];
  readonly statements: readonly string[];
}

/**
 * Creates a read model's tables. `CREATE TABLE IF NOT EXISTS` cannot add a
 * column to a table an older build created, so tables of another version
 * are dropped first; the projection's version bump rebuilds their content.
 */
export async function createVersionedTables(tx: SqlExecutor, schema: VersionedTables): Promise<void> {
  await tx.run(`CREATE TABLE IF NOT EXISTS ${schema.versionTable} (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)`);
  const stored = await tx.get<{ version: number | string }>(`SELECT version FROM ${schema.versionTable} WHERE id = 1`);
  if (Number(stored?.version) !== schema.version) {
    for (const table of schema.tables) await tx.run(`DROP TABLE IF EXISTS ${table}`);
    await tx.run(`INSERT INTO ${schema.versionTable} (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = excluded.version`, [schema.version]);
  }
  for (const statement of schema.statements) await tx.run(statement);
}
