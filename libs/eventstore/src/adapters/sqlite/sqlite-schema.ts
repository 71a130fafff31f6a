import type { Database } from 'better-sqlite3';

/**
 * WAL lets readers run beside the one writer; synchronous=FULL makes a
 * commit durable before `append` resolves (group commit pays that fsync once
 * per batch); busy_timeout lets a second process sharing the file wait for
 * the write lock instead of failing at once.
 */
export function configureSqlite(db: Database, busyTimeoutMs: number): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
}

/**
 * `position` is the rowid: assigned by the writer as head + 1 inside the
 * write transaction, so the log is gap-free. A stream's version is read from
 * the (stream, version) index, so no separate streams table has to be kept
 * in step.
 */
export function createSqliteSchema(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS events (
      position    INTEGER PRIMARY KEY,
      id          TEXT NOT NULL UNIQUE,
      stream      TEXT NOT NULL,
      version     INTEGER NOT NULL,
      type        TEXT NOT NULL,
      recorded_at TEXT NOT NULL,
      data        TEXT NOT NULL,
      metadata    TEXT NOT NULL,
      prev_hash   TEXT NOT NULL,
      hash        TEXT NOT NULL,
      UNIQUE (stream, version)
    )
  `);
}
