import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { EventStoreObserver } from '../../event-store-observer';
import { configureSqlite, createSqliteSchema } from './sqlite-schema';
import { SqliteEventStore } from './sqlite-event-store';

export interface SqliteEventStoreOptions {
  /** Path of the database file; its directory is created when missing. */
  readonly file: string;
  /** How long a writer waits for another process's write lock, in ms (default 5000). */
  readonly busyTimeoutMs?: number;
  /** Told of every append and group commit (the ledger's metrics); none by default. */
  readonly observer?: EventStoreObserver;
  /**
   * Bytes of the file SQLite reads through a memory map instead of read
   * calls (its `mmap_size`; 0, the default, reads as usual). For a
   * connection that only reads the log end to end (a verify range's
   * worker), where it makes each row cheaper to read.
   */
  readonly mappedBytes?: number;
}

export async function openSqliteEventStore(options: SqliteEventStoreOptions): Promise<SqliteEventStore> {
  mkdirSync(dirname(options.file), { recursive: true });
  const db = new Database(options.file);
  try {
    configureSqlite(db, options.busyTimeoutMs ?? 5000);
    if (options.mappedBytes) db.pragma(`mmap_size = ${Math.floor(options.mappedBytes)}`);
    createSqliteSchema(db);
    return new SqliteEventStore(db, options.observer);
  } catch (error) {
    db.close();
    throw error;
  }
}
