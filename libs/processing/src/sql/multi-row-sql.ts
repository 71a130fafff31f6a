import type { SqlExecutor } from './sql-database.port';

/** Rows per statement: few round trips, well under both engines' parameter limits. */
const CHUNK = 256;

/** `($1, $2), ($3, $4)…` for `rows` tuples of `width` values. */
function tuples(rows: number, width: number): string {
  return Array.from({ length: rows }, (_, row) => `(${Array.from({ length: width }, (_, column) => `$${row * width + column + 1}`).join(', ')})`).join(', ');
}

/**
 * Runs `sql` once per chunk of rows, with `$VALUES` replaced by the chunk's
 * tuples: multi-row INSERT … VALUES and `(a, b) IN (VALUES …)` lists, the
 * same text on SQLite and PostgreSQL.
 */
export async function runForRows(tx: SqlExecutor, sql: string, rows: readonly (readonly unknown[])[]): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    await tx.run(sql.replace('$VALUES', tuples(chunk.length, chunk[0].length)), chunk.flat());
  }
}

/**
 * `INSERT INTO table (columns) VALUES $VALUES ON CONFLICT (key) DO UPDATE SET`
 * every other column: with `runForRows`, whole rows written back whether they
 * were there or not.
 */
export const upsertRowsSql = (table: string, columns: readonly string[], key: readonly string[]): string =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES $VALUES ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${columns
    .filter((column) => !key.includes(column))
    .map((column) => `${column} = excluded.${column}`)
    .join(', ')}`;

/** Rows whose `column` is one of `keys`, read in chunks of `IN (…)` lists. */
export async function selectByKeys<Row>(tx: SqlExecutor, table: string, column: string, keys: Iterable<string>): Promise<Row[]> {
  const list = [...new Set(keys)];
  const rows: Row[] = [];
  for (let start = 0; start < list.length; start += CHUNK) {
    const chunk = list.slice(start, start + CHUNK);
    rows.push(...(await tx.all<Row>(`SELECT * FROM ${table} WHERE ${column} IN (${chunk.map((_, index) => `$${index + 1}`).join(', ')})`, chunk)));
  }
  return rows;
}
