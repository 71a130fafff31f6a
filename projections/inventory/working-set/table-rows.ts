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
  /** Keys whose stored row is known here: loaded, found absent, written or deleted. */
  private readonly known = new Set<string>();
  /** Groups whose stored rows have all been loaded. */
  private readonly knownGroups = new Set<string>();
  readonly changed = new Set<string>();
  readonly deleted = new Set<string>();

  constructor(
    private readonly keyOf: (row: Row) => string,
    private readonly groupOf?: (row: Row) => string,
  ) {}

  /**
   * A row as stored before the batch. A row loaded twice keeps its first
   * copy, and a deleted one stays deleted: when several reads fold into one
   * set, the table still holds what earlier reads changed here.
   */
  load(row: Row): void {
    const key = this.keyOf(row);
    this.known.add(key);
    if (this.rows.has(key) || this.deleted.has(key)) return;
    this.rows.set(key, row);
    this.group(row, key);
  }

  /** The keys whose stored rows are not known here yet, from now on taken as known: the caller loads them. */
  unknown(keys: Iterable<string>): string[] {
    const unknown: string[] = [];
    for (const key of keys) {
      if (this.known.has(key)) continue;
      this.known.add(key);
      unknown.push(key);
    }
    return unknown;
  }

  /** The groups whose stored rows are not all loaded here yet, from now on taken as loaded: the caller loads them. */
  unknownGroups(groups: Iterable<string>): string[] {
    const unknown: string[] = [];
    for (const group of groups) {
      if (this.knownGroups.has(group)) continue;
      this.knownGroups.add(group);
      unknown.push(group);
    }
    return unknown;
  }

  get(key: string): Row | undefined {
    return this.rows.get(key);
  }

  /** Records a new row, or a changed one (the same object after changing it in place, or a new one). */
  put(row: Row): void {
    const key = this.keyOf(row);
    const previous = this.rows.get(key);
    if (previous !== undefined && previous !== row) this.ungroup(previous, key);
    this.known.add(key);
    this.rows.set(key, row);
    this.group(row, key);
    this.changed.add(key);
    this.deleted.delete(key);
  }

  delete(key: string): void {
    const row = this.rows.get(key);
    if (row !== undefined) this.ungroup(row, key);
    this.known.add(key);
    this.rows.delete(key);
    this.changed.delete(key);
    this.deleted.add(key);
  }

  /** The keys of the rows in a group now, copied so the caller may delete while iterating. */
  keysIn(group: string): string[] {
    return [...(this.groups.get(group) ?? [])];
  }

  /**
   * The changed rows in key order: SQLite then inserts each into its
   * primary key's B-tree next to the one before, instead of at a random
   * leaf (uuids), which touches fewer pages.
   */
  changedRows(): Row[] {
    return [...this.changed].sort().map((key) => this.rows.get(key)!);
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
