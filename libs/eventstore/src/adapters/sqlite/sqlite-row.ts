import type { RecordedEvent } from '../../envelope';

/** An `events` row as better-sqlite3 returns it. */
export interface SqliteEventRow {
  readonly position: number;
  readonly id: string;
  readonly stream: string;
  readonly version: number;
  readonly type: string;
  readonly recorded_at: string;
  readonly data: string;
  readonly metadata: string;
  readonly prev_hash: string;
  readonly hash: string;
}

export const fromSqliteRow = (row: SqliteEventRow): RecordedEvent => ({
  id: row.id,
  type: row.type,
  stream: row.stream,
  version: row.version,
  position: row.position,
  recordedAt: row.recorded_at,
  data: JSON.parse(row.data),
  metadata: JSON.parse(row.metadata),
  prevHash: row.prev_hash,
  hash: row.hash,
});
