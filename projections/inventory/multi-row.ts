import type { SqlExecutor } from '@ledger/processing';

/**
 * Bound parameters per statement at most: SQLite's default limit (its
 * SQLITE_MAX_VARIABLE_NUMBER), below PostgreSQL's 65535, so one figure
 * serves both engines.
 */
const MAX_PARAMETERS = 32766;
/** Keys per `IN (…)` list at most. */
const MAX_KEYS = 1024;

/**
 * A multi-row upsert of whole rows: `INSERT INTO table (columns) VALUES …
 * ON CONFLICT (key) DO UPDATE SET column = excluded.column` for every other
 * column, so the row afterwards is exactly the one given, whether it was
 * there or not. Where the executor runs a statement per row without a
 * round trip (`runEach`, SQLite), each row goes through one prepared
 * one-row upsert. Otherwise rows are sent in chunks whose sizes are
 * powers of two under the parameter limit: statement texts are built once
 * per size and reused, so few distinct texts reach the engine. `conflictUpdate`, when
 * given, replaces the default `DO UPDATE SET …` clause (e.g. to keep the
 * newer of two rows).
 */
export class MultiRowUpsert<Row extends object> {
  private readonly texts = new Map<number, string>();
  private readonly maxRows: number;
  private readonly keys: readonly (keyof Row & string)[];

  /** `key`: the primary key's column, or its columns for a composite key. */
  constructor(
    private readonly table: string,
    key: (keyof Row & string) | readonly (keyof Row & string)[],
    private readonly columns: readonly (keyof Row & string)[],
    private readonly conflictUpdate?: string,
  ) {
    this.keys = typeof key === 'string' ? [key] : key;
    this.maxRows = largestPowerOfTwoAtMost(Math.floor(MAX_PARAMETERS / columns.length));
  }

  async run(tx: SqlExecutor, rows: readonly Row[]): Promise<void> {
    if (tx.runEach) {
      // No round trip to save: one prepared row statement, run per row, binds less (SQLite).
      if (rows.length > 0) await tx.runEach(this.text(1), this.valuesOf(rows));
      return;
    }
    for (let start = 0; start < rows.length; ) {
      const size = largestPowerOfTwoAtMost(Math.min(rows.length - start, this.maxRows));
      const params: unknown[] = [];
      for (let row = start; row < start + size; row++) {
        for (const column of this.columns) params.push(rows[row][column]);
      }
      await tx.run(this.text(size), params);
      start += size;
    }
  }

  private *valuesOf(rows: readonly Row[]): Generator<unknown[]> {
    for (const row of rows) yield this.columns.map((column) => row[column]);
  }

  private text(rows: number): string {
    let text = this.texts.get(rows);
    if (text === undefined) {
      const width = this.columns.length;
      const tuples: string[] = [];
      for (let row = 0; row < rows; row++) {
        const placeholders: string[] = [];
        for (let column = 1; column <= width; column++) placeholders.push(`$${row * width + column}`);
        tuples.push(`(${placeholders.join(', ')})`);
      }
      const updates = this.columns.filter((column) => !this.keys.includes(column)).map((column) => `${column} = excluded.${column}`);
      text =
        `INSERT INTO ${this.table} (${this.columns.join(', ')}) VALUES ${tuples.join(', ')} ` +
        `ON CONFLICT (${this.keys.join(', ')}) ${this.conflictUpdate ?? `DO UPDATE SET ${updates.join(', ')}`}`;
      this.texts.set(rows, text);
    }
    return text;
  }
}

/**
 * A statement over a list of keys, `sql` holding `$IN` where the list goes.
 * Long lists are split; each part is padded with its last key to a power of
 * two, so few distinct statement texts get prepared.
 */
export class KeyListStatement {
  private readonly texts = new Map<number, string>();

  constructor(private readonly sql: string) {}

  async run(tx: SqlExecutor, keys: Iterable<string>): Promise<void> {
    for (const [text, params] of this.chunks(keys)) await tx.run(text, params);
  }

  async all<Row>(tx: SqlExecutor, keys: Iterable<string>): Promise<Row[]> {
    const rows: Row[] = [];
    for (const [text, params] of this.chunks(keys)) rows.push(...(await tx.all<Row>(text, params)));
    return rows;
  }

  private *chunks(keys: Iterable<string>): Generator<[string, string[]]> {
    const list = [...keys];
    for (let start = 0; start < list.length; start += MAX_KEYS) {
      const params = list.slice(start, start + MAX_KEYS);
      const size = smallestPowerOfTwoAtLeast(params.length);
      const last = params[params.length - 1];
      while (params.length < size) params.push(last);
      yield [this.text(size), params];
    }
  }

  private text(size: number): string {
    let text = this.texts.get(size);
    if (text === undefined) {
      const list = Array.from({ length: size }, (_, index) => `$${index + 1}`).join(', ');
      text = this.sql.replace('$IN', list);
      this.texts.set(size, text);
    }
    return text;
  }
}

function largestPowerOfTwoAtMost(n: number): number {
  let size = 1;
  while (size * 2 <= n) size *= 2;
  return size;
}

function smallestPowerOfTwoAtLeast(n: number): number {
  let size = 1;
  while (size < n) size *= 2;
  return size;
}
