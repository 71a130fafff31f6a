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
