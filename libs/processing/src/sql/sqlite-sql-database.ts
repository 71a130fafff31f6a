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
/** Pages a backup copies between two turns of the event loop (64 MiB of 4 KiB pages): few turns, none long. */
const BACKUP_PAGES_PER_STEP = 16_384;

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
 * A private scratch copy of a SQLite read model, taken between its
 * transactions: an as-of rebuild continues from a copy of an earlier one
 * instead of replaying the log from position 0. Copied page by page by
 * SQLite's online backup into a scratch file (deleted when closed), as a
 * snapshot is written: never held whole in the process's memory.
 */
export async function copySqliteSqlDatabase(db: SqlDatabase): Promise<SqlDatabase> {
  return openScratch(basenameOf(db), (copy) => writeSqliteSqlDatabase(db, copy));
}

/**
 * Writes a SQLite database, taken between its transactions, to `file` (which
 * must not exist) with SQLite's online backup: what a read-model snapshot
 * stores. The backup copies pages straight from SQLite to the file; the
 * serialized image it replaces was a buffer of the whole database, and each
 * one's memory stayed with the process (a ledger catching up 40 snapshots of
 * a 745 MB read model grew past 23 GB and was killed).
 */
export async function writeSqliteSqlDatabase(db: SqlDatabase, file: string): Promise<void> {
  if (!(db instanceof SqliteSqlDatabase)) throw new TypeError(`only a SQLite database can be written to a file, not ${db.dialect}`);
  await db.backupTo(file);
}

/**
 * A private scratch copy of a SQLite database file (a read-model snapshot):
 * copied into a directory of its own under the temp dir, opened without
 * fsyncs, and deleted when closed. SQLite reads only the pages a replay
 * touches, where an image read into memory would cost
 * the whole file twice (read, then copied by SQLite) before the first row.
 */
export function openSqliteScratchCopy(file: string): Promise<SqlDatabase> {
  return openScratch(basename(file), async (copy) => copyFileSync(file, copy));
}

/** A scratch database filled by `fill` (given the path to create), in a directory of its own that is deleted when the database closes. */
async function openScratch(name: string, fill: (path: string) => Promise<void>): Promise<SqlDatabase> {
  const directory = mkdtempSync(join(tmpdir(), 'ledger-scratch-'));
  try {
    const copy = join(directory, name);
    await fill(copy);
    return openScratchFile(directory, copy);
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Opened for a private scratch use: nothing survives it, so no fsync and no
 * journal. A rollback cannot undo a transaction then, and need not: a
 * scratch copy whose rebuild fails is closed and deleted (AsOfRebuilds).
 * The journal in memory cost a third of an as-of replay's writes (a
 * malloc'd copy of every page before its first change; docs/benchmarks.md).
 */
function openScratchFile(directory: string, file: string): SqlDatabase {
  const connection = new Database(file, { timeout: 0 });
  connection.pragma('journal_mode = OFF');
  connection.pragma('synchronous = OFF');
  return new SqliteSqlDatabase(new SqliteStatements(connection), null, DEFAULT_BUSY_TIMEOUT_MS, () => rmSync(directory, { recursive: true, force: true }));
}

const basenameOf = (db: SqlDatabase): string => (db instanceof SqliteSqlDatabase ? db.fileName : 'copy.sqlite');

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

  /** A name for copies of this database: its file's, or `memory.sqlite`. */
  get fileName(): string {
    const name = this.writer.connection.name;
    return name === ':memory:' || name === '' ? 'memory.sqlite' : basename(name);
  }

  /** Copies the database to `file` with SQLite's online backup, while no transaction is open (the write lock is held throughout). */
  backupTo(file: string): Promise<void> {
    return this.writeLock.run(async () => {
      await this.writer.connection.backup(file, { progress: () => BACKUP_PAGES_PER_STEP });
    });
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
