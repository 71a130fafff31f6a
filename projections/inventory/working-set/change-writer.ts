import type { SqlExecutor } from '@ledger/processing';
import { MultiRowUpsert } from '../multi-row';
import type { RowChange } from './table-rows';

interface ColumnUpdates {
  readonly sql: string;
  readonly params: unknown[][];
}

/**
 * Writes one table's changed rows at the end of a batch. A row the table
 * does not hold is upserted whole. A row it holds is written only in the
 * columns whose values changed, and not at all when none did: an UPDATE
 * rewrites only the index entries of the columns it sets, where a
 * whole-row upsert rewrites every index entry of the row. On the read
 * model of a long log (an as-of replay after a snapshot) the whole-row
 * write of a device cost about four times the update of two columns
 * (docs/benchmarks.md, "The auditor's log").
 *
 * Updates go one row a statement where the executor runs statements
 * without a round trip (`runEach`, SQLite), grouped by the columns they
 * set. Elsewhere a changed row is upserted whole with the new ones, in
 * multi-row statements: a statement per row would cost a round trip each.
 */
export class ChangeWriter<Row extends object> {
  private readonly upsert: MultiRowUpsert<Row>;
  private readonly texts = new Map<string, string>();

  constructor(
    private readonly table: string,
    private readonly key: keyof Row & string,
    private readonly columns: readonly (keyof Row & string)[],
  ) {
    this.upsert = new MultiRowUpsert(table, key, columns);
  }

  async write(tx: SqlExecutor, changes: readonly RowChange<Row>[]): Promise<void> {
    const whole: Row[] = [];
    const updates = new Map<string, ColumnUpdates>();
    for (const { row, stored } of changes) {
      if (stored === undefined) {
        whole.push(row);
        continue;
      }
      const changed = this.columns.filter((column) => column !== this.key && row[column] !== stored[column]);
      if (changed.length === 0) continue;
      if (!tx.runEach) {
        whole.push(row);
        continue;
      }
      const signature = changed.join(',');
      let update = updates.get(signature);
      if (update === undefined) updates.set(signature, (update = { sql: this.updateText(signature, changed), params: [] }));
      update.params.push([...changed.map((column) => row[column]), row[this.key]]);
    }
    await this.upsert.run(tx, whole);
    for (const { sql, params } of updates.values()) await tx.runEach!(sql, params);
  }

  private updateText(signature: string, columns: readonly string[]): string {
    let text = this.texts.get(signature);
    if (text === undefined) {
      const sets = columns.map((column, index) => `${column} = $${index + 1}`).join(', ');
      this.texts.set(signature, (text = `UPDATE ${this.table} SET ${sets} WHERE ${this.key} = $${columns.length + 1}`));
    }
    return text;
  }
}
