import type { Pool } from 'pg';

/** The last position a reader can see now: the same gap-safe bound as readAll. */
const HEAD_POSITION = `
  SELECT position FROM ledger_events
  WHERE tx_id < pg_snapshot_xmin(pg_current_snapshot())
  ORDER BY position DESC
  LIMIT 1`;

export async function headPositionPostgres(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ position: string }>(HEAD_POSITION);
  return rows.length === 0 ? 0 : Number(rows[0].position);
}
