import type { Database, Statement } from 'better-sqlite3';
import { EVENT_COLUMNS, type SqliteEventRow } from './sqlite-row';

/** Every statement the store runs, prepared once per connection. */
export interface SqliteStatements {
  readonly head: Statement<[], { position: number; hash: string }>;
  readonly streamVersion: Statement<[string], { version: number }>;
  readonly idExists: Statement<[string], { found: number }>;
  /** Positional: position, id, stream, version, type, recorded_at, data, metadata, prev_hash, hash. */
  readonly insert: Statement<[number, string, string, number, string, string, string, string, string, string]>;
  /** By limit (-1: none): see `byLimit`. */
  readonly readStream: (limit: number) => Statement<[string, number], SqliteEventRow>;
  readonly readAfter: (limit: number) => Statement<[number], SqliteEventRow>;
  readonly scanBound: (limit: number) => Statement<[number], { upto: number | null }>;
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
    readStream: byLimit((limit) =>
      db.prepare<[string, number], SqliteEventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE stream = ? AND version >= ? ORDER BY version ${limitClause(limit)}`).raw(true),
    ),
    readAfter: byLimit((limit) => db.prepare<[number], SqliteEventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position ${limitClause(limit)}`).raw(true)),
    scanBound: byLimit((limit) => db.prepare(`SELECT MAX(position) AS upto FROM (SELECT position FROM events WHERE position > ? ORDER BY position ${limitClause(limit)})`)),
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

/** Distinct limits a store sees are few (batch sizes, "all"); more than this many means a caller varies them freely. */
const MAX_CACHED_LIMITS = 16;

/**
 * SQLite (3.53 here) re-prepares a statement whose LIMIT is a bound
 * parameter on every run — 14.6 µs instead of 1.7 µs for a stream's tail,
 * measured — so the limit is written into the SQL and the statements are
 * kept per limit value.
 */
function byLimit<S>(prepare: (limit: number) => S): (limit: number) => S {
  const prepared = new Map<number, S>();
  return (limit) => {
    const key = Number.isInteger(limit) && limit >= 0 ? limit : -1;
    let statement = prepared.get(key);
    if (statement === undefined) {
      statement = prepare(key);
      if (prepared.size >= MAX_CACHED_LIMITS) prepared.delete(prepared.keys().next().value as number);
      prepared.set(key, statement);
    }
    return statement;
  };
}

const limitClause = (limit: number): string => (limit >= 0 ? `LIMIT ${limit}` : '');
