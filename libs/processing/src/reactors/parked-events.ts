import type { SqlExecutor } from '../sql/sql-database.port';

/** An event a reactor gave up on after its attempts: kept for an operator to see and retry. */
export interface ParkedEvent {
  readonly reactor: string;
  readonly position: number;
  readonly eventId: string;
  readonly type: string;
  readonly stream: string;
  readonly error: string;
  readonly attempts: number;
  readonly firstFailedAt: string;
  readonly lastFailedAt: string;
  /** Set while an operator's retry waits for the instance that runs the reactor. */
  readonly retryRequestedAt: string | null;
}

interface ParkedRow {
  reactor: string;
  position: number | string;
  event_id: string;
  type: string;
  stream: string;
  error: string;
  attempts: number | string;
  first_failed_at: string;
  last_failed_at: string;
  retry_requested_at: string | null;
}

const COLUMNS = 'reactor, position, event_id, type, stream, error, attempts, first_failed_at, last_failed_at, retry_requested_at';

/** Beside the checkpoints, never among a projection's tables: no rebuild empties it. */
export async function ensureParkedEventsTable(db: SqlExecutor): Promise<void> {
  await db.run(`CREATE TABLE IF NOT EXISTS reactor_parked_events (
    reactor TEXT NOT NULL,
    position BIGINT NOT NULL,
    event_id TEXT NOT NULL,
    type TEXT NOT NULL,
    stream TEXT NOT NULL,
    error TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    first_failed_at TEXT NOT NULL,
    last_failed_at TEXT NOT NULL,
    retry_requested_at TEXT,
    PRIMARY KEY (reactor, position)
  )`);
}

export async function parkEvent(tx: SqlExecutor, parked: Omit<ParkedEvent, 'retryRequestedAt'>): Promise<void> {
  await tx.run(
    `INSERT INTO reactor_parked_events (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL)
     ON CONFLICT (reactor, position) DO UPDATE SET error = excluded.error, attempts = excluded.attempts, last_failed_at = excluded.last_failed_at`,
    [parked.reactor, parked.position, parked.eventId, parked.type, parked.stream, parked.error, parked.attempts, parked.firstFailedAt, parked.lastFailedAt],
  );
}

export async function listParkedEvents(db: SqlExecutor, reactor: string): Promise<ParkedEvent[]> {
  const rows = await db.all<ParkedRow>(`SELECT ${COLUMNS} FROM reactor_parked_events WHERE reactor = $1 ORDER BY position`, [reactor]);
  return rows.map(toParkedEvent);
}

export async function getParkedEvent(db: SqlExecutor, reactor: string, position: number): Promise<ParkedEvent | undefined> {
  const row = await db.get<ParkedRow>(`SELECT ${COLUMNS} FROM reactor_parked_events WHERE reactor = $1 AND position = $2`, [reactor, position]);
  return row ? toParkedEvent(row) : undefined;
}

/** Parked events per reactor. */
export async function countParkedEvents(db: SqlExecutor): Promise<Map<string, number>> {
  const rows = await db.all<{ reactor: string; n: number | string }>('SELECT reactor, COUNT(*) AS n FROM reactor_parked_events GROUP BY reactor');
  return new Map(rows.map((row) => [row.reactor, Number(row.n)]));
}

/** Marks a parked event for the instance running the reactor to retry; false when there is no such event. */
export async function requestParkedRetry(db: SqlExecutor, reactor: string, position: number, at: string): Promise<boolean> {
  return (await db.run('UPDATE reactor_parked_events SET retry_requested_at = $3 WHERE reactor = $1 AND position = $2', [reactor, position, at])) === 1;
}

export async function parkedRetriesRequested(db: SqlExecutor, reactor: string): Promise<number[]> {
  const rows = await db.all<{ position: number | string }>(
    'SELECT position FROM reactor_parked_events WHERE reactor = $1 AND retry_requested_at IS NOT NULL ORDER BY position',
    [reactor],
  );
  return rows.map((row) => Number(row.position));
}

export async function unparkEvent(tx: SqlExecutor, reactor: string, position: number): Promise<void> {
  await tx.run('DELETE FROM reactor_parked_events WHERE reactor = $1 AND position = $2', [reactor, position]);
}

/** An operator's retry failed again: the event stays parked with the new error, and the request is done. */
export async function recordParkedRetryFailure(tx: SqlExecutor, reactor: string, position: number, error: string, at: string): Promise<void> {
  await tx.run(
    `UPDATE reactor_parked_events SET error = $3, attempts = attempts + 1, last_failed_at = $4, retry_requested_at = NULL
     WHERE reactor = $1 AND position = $2`,
    [reactor, position, error, at],
  );
}

function toParkedEvent(row: ParkedRow): ParkedEvent {
  return {
    reactor: row.reactor,
    position: Number(row.position),
    eventId: row.event_id,
    type: row.type,
    stream: row.stream,
    error: row.error,
    attempts: Number(row.attempts),
    firstFailedAt: row.first_failed_at,
    lastFailedAt: row.last_failed_at,
    retryRequestedAt: row.retry_requested_at,
  };
}
