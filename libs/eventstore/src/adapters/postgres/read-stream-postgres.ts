import type { Pool } from 'pg';
import type { RecordedEvent } from '../../envelope';
import type { ReadStreamOptions } from '../../event-store.port';
import { EVENT_COLUMNS, fromPostgresRow, type PostgresEventRow } from './postgres-row';

/** `LIMIT NULL` is no limit. */
const READ_STREAM = `
  SELECT ${EVENT_COLUMNS} FROM ledger_events
  WHERE stream = $1 AND version >= $2
  ORDER BY version
  LIMIT $3`;

export async function readStreamPostgres(pool: Pool, stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
  const { rows } = await pool.query<PostgresEventRow>(READ_STREAM, [stream, options.fromVersion ?? 1, options.max ?? null]);
  return rows.map(fromPostgresRow);
}
