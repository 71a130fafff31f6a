import type { RecordedEvent } from '../../envelope';

/** A `ledger_events` row as `pg` returns it: bigint as a string, jsonb parsed. */
export interface PostgresEventRow {
  readonly position: string;
  readonly id: string;
  readonly stream: string;
  readonly version: number;
  readonly type: string;
  readonly recorded_at: string;
  readonly data: unknown;
  readonly metadata: RecordedEvent['metadata'];
  readonly prev_hash: string;
  readonly hash: string;
}

export const EVENT_COLUMNS = 'position, id, stream, version, type, recorded_at, data, metadata, prev_hash, hash';

export const fromPostgresRow = (row: PostgresEventRow): RecordedEvent => ({
  id: row.id,
  type: row.type,
  stream: row.stream,
  version: row.version,
  position: Number(row.position),
  recordedAt: row.recorded_at,
  data: row.data,
  metadata: row.metadata,
  prevHash: row.prev_hash,
  hash: row.hash,
});
