import type { Pool } from 'pg';

/**
 * The last committed position: the head row is updated in the same
 * transaction as the events it counts, so a reader's snapshot never shows a
 * head ahead of the events (see read-all-postgres for why that prefix is whole).
 */
const HEAD_POSITION = 'SELECT position FROM ledger_head WHERE id = 1';

export async function headPositionPostgres(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ position: string }>(HEAD_POSITION);
  return rows.length === 0 ? 0 : Number(rows[0].position);
}
