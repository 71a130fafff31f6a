import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { AsyncMutex } from './async-mutex';
import type { SqlDatabase, SqlExecutor } from './sql-database.port';
import { SqliteStatements } from './sqlite-statements';
import { SqliteTransaction } from './sqlite-transaction';
import { whenUnlocked } from './when-unlocked';

export interface SqliteSqlDatabaseOptions {
  /** Database file (its directory is created), or `:memory:` for a private database (replay tools, benchmarks). */
  readonly file: string;
  /** How long a statement waits for another process's lock before failing; default 5000 ms. */
  readonly busyTimeoutMs?: number;
}

const NO_PARAMS: readonly unknown[] = [];
const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/**
 * Read models and checkpoints on SQLite. A file database gets two
 * connections: a writer that runs every transaction and write, and a
 * read-only reader for queries outside transactions, which in WAL mode sees
 * only committed data even while a transaction is open on the writer. A
 * `:memory:` database has one connection, so its queries wait for the open
 * transaction instead.
 */
export async function openSqliteSqlDatabase(options: SqliteSqlDatabaseOptions): Promise<SqlDatabase> {
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (options.file === ':memory:') return new SqliteSqlDatabase(new SqliteStatements(new Database(':memory:')), null, busyTimeoutMs);
  mkdirSync(dirname(options.file), { recursive: true });
  // The writer waits for locks asynchronously (see when-unlocked.ts): SQLite's
  // own busy handler would block the event loop while it waits.
  const writer = new Database(options.file, { timeout: 0 });
  writer.pragma('journal_mode = WAL');
  // NORMAL: a commit reaches the WAL without its own fsync (SQLite fsyncs at WAL checkpoints). A
  // killed process loses nothing; a power loss can take back the last commits, each read model with
  // its checkpoint (they commit in one transaction), so the processors replay those events from the
  // event store, which keeps FULL. The fsync per read-model commit cost more than the write it
  // followed (docs/architecture.md, "Durability").
  writer.pragma('synchronous = NORMAL');
  const reader = new Database(options.file, { readonly: true, timeout: busyTimeoutMs });
  return new SqliteSqlDatabase(new SqliteStatements(writer), new SqliteStatements(reader), busyTimeoutMs);
}

/**
 * A private in-memory copy of a SQLite read model, taken between its
 * transactions (SQLite's serialize): an as-of rebuild continues from a copy
 * of an earlier one instead of replaying the log from position 0.
 */
export async function copySqliteSqlDatabase(db: SqlDatabase): Promise<SqlDatabase> {
  return openSqliteSqlImage(await serializeSqliteSqlDatabase(db));
}

/** A SQLite database as its serialized image (a file's bytes), taken between its transactions: what a read-model snapshot stores. */
export async function serializeSqliteSqlDatabase(db: SqlDatabase): Promise<Buffer> {
  if (!(db instanceof SqliteSqlDatabase)) throw new TypeError(`only a SQLite database can be serialized, not ${db.dialect}`);
  return db.serialize();
}

/**
 * A private scratch copy of a SQLite database file (a read-model snapshot):
 * copied into a directory of its own under the temp dir, opened without
 * fsyncs, and deleted when closed. SQLite reads only the pages a replay
 * touches, where an image read into memory (`openSqliteSqlImage`) costs
 * the whole file twice (read, then copied by SQLite) before the first row.
 */
export function openSqliteScratchCopy(file: string): SqlDatabase {
  const directory = mkdtempSync(join(tmpdir(), 'ledger-scratch-'));
  try {
    const copy = join(directory, basename(file));
    copyFileSync(file, copy);
    const connection = new Database(copy, { timeout: 0 });
    connection.pragma('journal_mode = MEMORY');
    connection.pragma('synchronous = OFF');
    return new SqliteSqlDatabase(new SqliteStatements(connection), null, DEFAULT_BUSY_TIMEOUT_MS, () => rmSync(directory, { recursive: true, force: true }));
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}

/** A private in-memory database opened from a serialized image (a copy, or a snapshot file's bytes); the image itself is not changed. */
export function openSqliteSqlImage(image: Buffer): SqlDatabase {
  return new SqliteSqlDatabase(new SqliteStatements(new Database(image)), null, DEFAULT_BUSY_TIMEOUT_MS);
}

class SqliteSqlDatabase implements SqlDatabase {
  readonly dialect = 'sqlite' as const;
  /** One connection runs one transaction at a time, and awaits inside it would otherwise interleave. */
  private readonly writeLock = new AsyncMutex();
  private closed = false;

  constructor(
    private readonly writer: SqliteStatements,
    private readonly reader: SqliteStatements | null,
    private readonly busyTimeoutMs: number,
    /** Runs once the connections are closed (a scratch copy deletes its file). */
    private readonly afterClose?: () => void,
  ) {}

  async run(sql: string, params: readonly unknown[] = NO_PARAMS): Promise<number> {
    const reader = this.readerFor(sql);
    if (reader) return reader.run(sql, params);
    return this.writeLock.run(() => whenUnlocked(this.busyTimeoutMs, () => this.writer.run(sql, params)));
  }

  async all<Row = Record<string, unknown>>(sql: string, params: readonly unknown[] = NO_PARAMS): Promise<Row[]> {
    const reader = this.readerFor(sql);
    if (reader) return reader.all<Row>(sql, params);
    return this.writeLock.run(() => whenUnlocked(this.busyTimeoutMs, () => this.writer.all<Row>(sql, params)));
  }

  async get<Row = Record<string, unknown>>(sql: string, params: readonly unknown[] = NO_PARAMS): Promise<Row | undefined> {
    const reader = this.readerFor(sql);
    if (reader) return reader.get<Row>(sql, params);
    return this.writeLock.run(() => whenUnlocked(this.busyTimeoutMs, () => this.writer.get<Row>(sql, params)));
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.writeLock.run(async () => {
      const connection = this.writer.connection;
      const tx = new SqliteTransaction(this.writer);
      // IMMEDIATE takes the write lock now: a deferred transaction that reads
      // first and writes later fails with SQLITE_BUSY, without waiting, when
      // another process committed in between.
      await whenUnlocked(this.busyTimeoutMs, () => this.writer.run('BEGIN IMMEDIATE', NO_PARAMS));
      try {
        const result = await work(tx);
        this.writer.run('COMMIT', NO_PARAMS);
        return result;
      } catch (error) {
        if (connection.inTransaction) this.writer.run('ROLLBACK', NO_PARAMS);
        throw error;
      } finally {
        tx.end();
      }
    });
  }

  /** The whole database as SQLite's serialized image, taken while no transaction is open. */
  serialize(): Promise<Buffer> {
    return this.writeLock.run(async () => this.writer.connection.serialize());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writeLock.drain();
    this.reader?.connection.close();
    this.writer.connection.close();
    this.afterClose?.();
  }

  /** The reader connection when there is one and the statement cannot write; otherwise null. */
  private readerFor(sql: string): SqliteStatements | null {
    if (this.reader === null) return null;
    try {
      return this.reader.prepare(sql).readonly ? this.reader : null;
    } catch {
      return null; // the writer reports the error, or runs what the reader cannot prepare
    }
  }
}
