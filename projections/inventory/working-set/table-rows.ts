/**
 * One table's rows that a batch has read or written, and what it did to
 * them: `changed` rows are written back whole at the end of the batch,
 * `deleted` keys are deleted (a key is never in both). Rows can be grouped
 * by a parent key (a device's deployables, a deployable's handles) because
 * the projection deletes children by parent, as its SQL did.
 */
export class TableRows<Row> {
  private readonly rows = new Map<string, Row>();
  private readonly groups = new Map<string, Set<string>>();
  readonly changed = new Set<string>();
  readonly deleted = new Set<string>();

  constructor(
    private readonly keyOf: (row: Row) => string,
    private readonly groupOf?: (row: Row) => string,
  ) {}

  /** A row as stored before the batch; a row loaded twice keeps its first copy. */
  load(row: Row): void {
    const key = this.keyOf(row);
    if (this.rows.has(key)) return;
    this.rows.set(key, row);
    this.group(row, key);
  }

  get(key: string): Row | undefined {
    return this.rows.get(key);
  }

  /** Records a new row, or a changed one (the same object after changing it in place, or a new one). */
  put(row: Row): void {
    const key = this.keyOf(row);
    const previous = this.rows.get(key);
    if (previous !== undefined && previous !== row) this.ungroup(previous, key);
    this.rows.set(key, row);
    this.group(row, key);
    this.changed.add(key);
    this.deleted.delete(key);
  }

  delete(key: string): void {
    const row = this.rows.get(key);
    if (row !== undefined) this.ungroup(row, key);
    this.rows.delete(key);
    this.changed.delete(key);
    this.deleted.add(key);
  }

  /** The keys of the rows in a group now, copied so the caller may delete while iterating. */
  keysIn(group: string): string[] {
    return [...(this.groups.get(group) ?? [])];
  }

  changedRows(): Row[] {
    return [...this.changed].map((key) => this.rows.get(key)!);
  }

  private group(row: Row, key: string): void {
    if (!this.groupOf) return;
    const group = this.groupOf(row);
    let keys = this.groups.get(group);
    if (keys === undefined) this.groups.set(group, (keys = new Set()));
    keys.add(key);
  }

  private ungroup(row: Row, key: string): void {
    if (this.groupOf) this.groups.get(this.groupOf(row))?.delete(key);
  }
}
