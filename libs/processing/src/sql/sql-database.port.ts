/**
 * The slice of SQL that read models and checkpoints need, identical on
 * SQLite and PostgreSQL. Statements use PostgreSQL-style `$1, $2…`
 * placeholders; the SQLite adapter rewrites them. Write portable SQL: TEXT,
 * INTEGER, BIGINT, `INSERT … ON CONFLICT … DO UPDATE`, JSON kept as TEXT,
 * booleans as INTEGER 0/1.
 */
export interface SqlExecutor {
  /** Runs a statement; resolves to the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /**
   * Runs one statement once for each list of parameters, in order; resolves
   * to the number of rows changed in all. Offered where a statement costs
   * no round trip (SQLite): a prepared one-row statement run per row then
   * binds less than a statement of many rows (`MultiRowUpsert`), which is
   * what an engine over the network needs instead.
   */
  runEach?(sql: string, paramLists: Iterable<readonly unknown[]>): Promise<number>;
  all<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  get<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row | undefined>;
}

export type SqlDialect = 'sqlite' | 'postgres';

export interface SqlDatabase extends SqlExecutor {
  readonly dialect: SqlDialect;
  /**
   * Runs `work` in one transaction: commits when it resolves, rolls back when
   * it throws. Transactions on one database object are serialized. Reads
   * outside a transaction never see another transaction's uncommitted writes.
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
