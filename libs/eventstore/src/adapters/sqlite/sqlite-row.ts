import type { RecordedEvent } from '../../envelope';
import type { StoredEvent } from '../../hash-chain/stored-event';

/**
 * The columns every read selects, in this order. Reads run in better-sqlite3's
 * raw mode (rows as arrays): building one object per row only to copy it
 * into the envelope cost about a third of readAll.
 */
export const EVENT_COLUMNS = 'position, id, stream, version, type, recorded_at, data, metadata, prev_hash, hash';

/** An `events` row as a raw statement returns it, in EVENT_COLUMNS order. */
export type SqliteEventRow = readonly [
  position: number,
  id: string,
  stream: string,
  version: number,
  type: string,
  recordedAt: string,
  data: string,
  metadata: string,
  prevHash: string,
  hash: string,
];

export const fromSqliteRow = (row: SqliteEventRow): RecordedEvent => ({
  id: row[1],
  type: row[4],
  stream: row[2],
  version: row[3],
  position: row[0],
  recordedAt: row[5],
  data: JSON.parse(row[6]),
  metadata: JSON.parse(row[7]),
  prevHash: row[8],
  hash: row[9],
});

/** The row with data and metadata left as the text written: no JSON.parse. */
export const storedFromSqliteRow = (row: SqliteEventRow): StoredEvent => ({
  id: row[1],
  type: row[4],
  stream: row[2],
  version: row[3],
  position: row[0],
  recordedAt: row[5],
  dataJson: row[6],
  metadataJson: row[7],
  prevHash: row[8],
  hash: row[9],
});
