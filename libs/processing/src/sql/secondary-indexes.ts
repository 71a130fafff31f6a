import type { SqlDialect, SqlExecutor } from './sql-database.port';

/**
 * Drops the named secondary indexes that exist and returns the statements
 * that create them again. A bulk load (a rebuild from position 0) then
 * writes each row into its table, its primary key and the indexes its own
 * reads need only, and each dropped index is built once at the end from
 * the finished table. Name only indexes the load never reads: a load that
 * looks rows up by a dropped index scans the whole table instead.
 */
export async function dropSecondaryIndexes(tx: SqlExecutor, dialect: SqlDialect, names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const list = names.map((_, index) => `$${index + 1}`).join(', ');
  const indexes =
    dialect === 'sqlite'
      ? await tx.all<{ name: string; sql: string }>(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND name IN (${list}) ORDER BY name`, names)
      : await tx.all<{ name: string; sql: string }>(
          `SELECT indexname AS name, indexdef AS sql FROM pg_indexes
           WHERE schemaname = current_schema() AND indexname IN (${list})
             AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE connamespace = current_schema()::regnamespace)
           ORDER BY indexname`,
          names,
        );
  for (const { name } of indexes) await tx.run(`DROP INDEX ${name}`);
  return indexes.map(({ sql }) => sql);
}

/** Creates again what `dropSecondaryIndexes` dropped. */
export async function createSecondaryIndexes(tx: SqlExecutor, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await tx.run(statement);
}
