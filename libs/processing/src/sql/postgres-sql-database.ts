import { Client, Pool, type PoolClient, type QueryResult, types } from 'pg';
import { createSchemaIfMissing } from '@ledger/eventstore';
import { AsyncMutex } from './async-mutex';
import type { SqlDatabase, SqlExecutor } from './sql-database.port';

export interface PostgresSqlDatabaseOptions {
  readonly connectionString: string;
  /**
   * Schema for every table (created if absent) via the connections'
   * search_path, so test files and deployments can share one database.
   * Default: the server's search_path.
   */
  readonly schema?: string;
  /** Pooled connections; default 10. */
  readonly maxConnections?: number;
}

const NO_PARAMS: readonly unknown[] = [];
/** Plain lower-case identifiers: the name goes unquoted into DDL and the search_path option. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * BIGINT (`COUNT(*)`, positions) and NUMERIC (`SUM`) arrive as strings from
 * pg because they may exceed 2^53; the ledger's counts and positions never
 * do, and SQLite returns numbers, so both dialects read them as numbers.
 */
const numericTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    (oid === types.builtins.INT8 || oid === types.builtins.NUMERIC) && format !== 'binary'
      ? Number
      : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
};

/** Read models and checkpoints on PostgreSQL: a pool for reads, one pooled client per transaction. */
export async function openPostgresSqlDatabase(options: PostgresSqlDatabaseOptions): Promise<SqlDatabase> {
  const { connectionString, schema } = options;
  if (schema !== undefined) {
    if (!SCHEMA_NAME.test(schema)) throw new RangeError(`invalid schema name: ${schema}`);
    await createSchema(connectionString, schema);
  }
  const pool = new Pool({
    connectionString,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: 10_000,
    types: numericTypes,
    options: schema === undefined ? undefined : `-c search_path=${schema}`,
  });
  // An idle client that loses its connection is dropped from the pool and
  // replaced on the next query; without a listener the error would crash the process.
  pool.on('error', () => undefined);
  return new PostgresSqlDatabase(pool);
}

async function createSchema(connectionString: string, schema: string): Promise<void> {
  const client = new Client({ connectionString });
  await client.connect();
  try {
    await createSchemaIfMissing(client, schema);
  } finally {
    await client.end();
  }
}

class PostgresSqlDatabase implements SqlDatabase {
  readonly dialect = 'postgres' as const;
  /** The port promises serialized transactions on one database object, as on SQLite. */
  private readonly transactions = new AsyncMutex();
  private readonly reads: PostgresExecutor;
  private closed = false;

  constructor(private readonly pool: Pool) {
    this.reads = new PostgresExecutor(pool);
  }

  run(sql: string, params?: readonly unknown[]): Promise<number> {
    return this.reads.run(sql, params);
  }

  all<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]> {
    return this.reads.all<Row>(sql, params);
  }

  get<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row | undefined> {
    return this.reads.get<Row>(sql, params);
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.transactions.run(async () => {
      const client = await this.pool.connect();
      const tx = new PostgresExecutor(client);
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError; // the connection is unusable: destroy it rather than pool it
        });
        throw error;
      } finally {
        tx.end();
        client.release(broken);
      }
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.transactions.drain();
    await this.pool.end();
  }
}

/** Runs statements on the pool or on one transaction's client. */
class PostgresExecutor implements SqlExecutor {
  private open = true;

  constructor(private readonly target: Pool | PoolClient) {}

  async run(sql: string, params: readonly unknown[] = NO_PARAMS): Promise<number> {
    const result = await this.query(sql, params);
    // A parameterless script of several statements answers with one result each.
    return Array.isArray(result) ? result.reduce((sum: number, each: QueryResult) => sum + (each.rowCount ?? 0), 0) : (result.rowCount ?? 0);
  }

  async all<Row = Record<string, unknown>>(sql: string, params: readonly unknown[] = NO_PARAMS): Promise<Row[]> {
    const result = await this.query(sql, params);
    return (Array.isArray(result) ? result[result.length - 1] : result).rows as Row[];
  }

  async get<Row = Record<string, unknown>>(sql: string, params: readonly unknown[] = NO_PARAMS): Promise<Row | undefined> {
    const rows = await this.all<Row>(sql, params);
    return rows[0];
  }

  end(): void {
    this.open = false;
  }

  private query(sql: string, params: readonly unknown[]): Promise<QueryResult | QueryResult[]> {
    if (!this.open) throw new Error('the transaction has ended; use the executor only inside its work function');
    return this.target.query(sql, params as unknown[]) as Promise<QueryResult | QueryResult[]>;
  }
}
