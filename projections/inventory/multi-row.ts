import type { SqlExecutor } from '@ledger/processing';

/** Rows per statement at most; chunk sizes are powers of two so few distinct statement texts get prepared. */
const MAX_ROWS = 128;

/**
 * A multi-row `INSERT`: `head` is `INSERT INTO t (a, b)`, `tail` the
 * `ON CONFLICT …` clause, `columns` the number of values per row. Statement
 * texts are built once per size and reused, so the adapter's prepared
 * statement cache finds them without rehashing a fresh string.
 */
export class MultiRowInsert {
  private readonly texts = new Map<number, string>();

  constructor(
    private readonly head: string,
    private readonly tail: string,
    private readonly columns: number,
  ) {}

  async run(tx: SqlExecutor, rows: readonly (readonly unknown[])[]): Promise<void> {
    for (let start = 0; start < rows.length; ) {
      const size = largestPowerOfTwoAtMost(Math.min(rows.length - start, MAX_ROWS));
      const params: unknown[] = [];
      for (let row = start; row < start + size; row++) params.push(...rows[row]);
      await tx.run(this.text(size), params);
      start += size;
    }
  }

  private text(rows: number): string {
    let text = this.texts.get(rows);
    if (text === undefined) {
      const tuples: string[] = [];
      for (let row = 0; row < rows; row++) {
        const placeholders: string[] = [];
        for (let column = 1; column <= this.columns; column++) placeholders.push(`$${row * this.columns + column}`);
        tuples.push(`(${placeholders.join(', ')})`);
      }
      text = `${this.head} VALUES ${tuples.join(', ')} ${this.tail}`;
      this.texts.set(rows, text);
    }
    return text;
  }
}

/**
 * A statement over a list of keys, `sql` holding `$IN` where the list goes
 * (after `leading` parameters). The list is padded with its last key to a
 * power of two, so few distinct statement texts get prepared.
 */
export class KeyListStatement {
  private readonly texts = new Map<number, string>();

  constructor(
    private readonly sql: string,
    private readonly leading: number,
  ) {}

  async run(tx: SqlExecutor, leading: readonly unknown[], keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += MAX_ROWS) {
      const chunk = keys.slice(start, start + MAX_ROWS);
      const size = smallestPowerOfTwoAtLeast(chunk.length);
      const params: unknown[] = [...leading, ...chunk];
      while (params.length < this.leading + size) params.push(chunk[chunk.length - 1]);
      await tx.run(this.text(size), params);
    }
  }

  private text(size: number): string {
    let text = this.texts.get(size);
    if (text === undefined) {
      const list = Array.from({ length: size }, (_, index) => `$${this.leading + index + 1}`).join(', ');
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
