/** An event-like row, as the ceilings write it: no position, no hash, no constraint. */
export interface PlainRow {
  readonly id: string;
  readonly stream: string;
  readonly version: number;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: unknown;
}

/**
 * A table with the columns of an event and no index or constraint, written
 * and read with the raw driver: what the engine can do, for the ceilings.
 * Writers serialize `data` and `metadata` to JSON as part of the timed work.
 */
export interface PlainTable {
  /** Inserts every row in one transaction. */
  insertInOneTransaction(rows: readonly PlainRow[]): Promise<void>;
  /** Inserts one row in its own transaction (one commit, one fsync). */
  insertAndCommit(row: PlainRow): Promise<void>;
  /** Selects every row and parses its JSON columns; resolves to the row count. */
  readAllParsed(): Promise<number>;
  close(): Promise<void>;
}
