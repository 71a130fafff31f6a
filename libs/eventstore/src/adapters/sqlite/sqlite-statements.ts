import type { Database, Statement } from 'better-sqlite3';
import { EVENT_COLUMNS, type SqliteEventRow } from './sqlite-row';

/** Every statement the store runs, prepared once per connection. */
export interface SqliteStatements {
  readonly head: Statement<[], { position: number; hash: string }>;
  readonly streamVersion: Statement<[string], { version: number }>;
  readonly idExists: Statement<[string], { found: number }>;
  /** Positional: position, id, stream, version, type, recorded_at, data, metadata, prev_hash, hash. */
  readonly insert: Statement<[number, string, string, number, string, string, string, string, string, string]>;
  readonly readStream: Statement<[string, number, number], SqliteEventRow>;
  readonly readAfter: Statement<[number, number], SqliteEventRow>;
  readonly scanBound: Statement<[number, number], { upto: number | null }>;
  readonly readRange: Statement<[ReadRangeParameters], SqliteEventRow>;
}

export interface ReadRangeParameters {
  readonly after: number;
  readonly upto: number;
  /** JSON arrays, or null for "no filter". */
  readonly categories: string | null;
  readonly types: string | null;
}

export function prepareSqliteStatements(db: Database): SqliteStatements {
  return {
    head: db.prepare('SELECT position, hash FROM events ORDER BY position DESC LIMIT 1'),
    streamVersion: db.prepare('SELECT COALESCE(MAX(version), 0) AS version FROM events WHERE stream = ?'),
    idExists: db.prepare('SELECT 1 AS found FROM events WHERE id = ?'),
    insert: db.prepare(`
      INSERT INTO events (position, id, stream, version, type, recorded_at, data, metadata, prev_hash, hash)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    `),
    readStream: db.prepare<[string, number, number], SqliteEventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE stream = ? AND version >= ? ORDER BY version LIMIT ?`).raw(true),
    readAfter: db.prepare<[number, number], SqliteEventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`).raw(true),
    scanBound: db.prepare('SELECT MAX(position) AS upto FROM (SELECT position FROM events WHERE position > ? ORDER BY position LIMIT ?)'),
    // The category is the stream name up to its first dash (see streamCategory).
    readRange: db.prepare<[ReadRangeParameters], SqliteEventRow>(`
      SELECT ${EVENT_COLUMNS} FROM events
      WHERE position > @after AND position <= @upto
        AND (@categories IS NULL OR substr(stream, 1, instr(stream, '-') - 1) IN (SELECT value FROM json_each(@categories)))
        AND (@types IS NULL OR type IN (SELECT value FROM json_each(@types)))
      ORDER BY position
    `).raw(true),
  };
}
