import type { SqlDialect, SqlExecutor } from './sql-database.port';

/**
 * Drops the secondary indexes of `tables` and returns the statements that
 * create them again. A bulk load into empty tables (a rebuild from position
 * 0) then writes each row into its table and primary key only, and each
 * index is built once at the end from sorted rows: on the inventory, with
 * nine secondary indexes, row by row upkeep was most of the rebuild's SQL
 * time. Primary keys and unique constraints stay, since the load's upserts
 * need them.
 */
export async function dropSecondaryIndexes(tx: SqlExecutor, dialect: SqlDialect, tables: readonly string[]): Promise<string[]> {
  if (tables.length === 0) return [];
  const list = tables.map((_, index) => `$${index + 1}`).join(', ');
  const indexes =
    dialect === 'sqlite'
      ? await tx.all<{ name: string; sql: string }>(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${list}) ORDER BY name`, tables)
      : await tx.all<{ name: string; sql: string }>(
          `SELECT indexname AS name, indexdef AS sql FROM pg_indexes
           WHERE schemaname = current_schema() AND tablename IN (${list})
             AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE connamespace = current_schema()::regnamespace)
           ORDER BY indexname`,
          tables,
        );
  for (const { name } of indexes) await tx.run(`DROP INDEX ${name}`);
  return indexes.map(({ sql }) => sql);
}

/** Creates again what `dropSecondaryIndexes` dropped. */
export async function createSecondaryIndexes(tx: SqlExecutor, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await tx.run(statement);
}
