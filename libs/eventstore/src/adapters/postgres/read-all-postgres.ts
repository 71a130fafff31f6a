import type { Pool } from 'pg';
import type { ReadAllOptions, ReadAllResult } from '../../event-store.port';
import { EVENT_COLUMNS, fromPostgresRow, type PostgresEventRow } from './postgres-row';

/**
 * Gap safety (as Emmett does it): only rows written by transactions older
 * than every transaction still running are read, so a reader never moves
 * past a position that a slower transaction could still commit. `scanned`
 * is the window of up to `max` such positions; the filter applies inside
 * it, and the window's end is returned even when the filter dropped
 * everything, so a filtered reader keeps moving. The category is the stream
 * name up to its first dash (see streamCategory).
 */
const READ_ALL = `
  WITH scanned AS (
    SELECT ${EVENT_COLUMNS} FROM ledger_events
    WHERE position > $1 AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
    ORDER BY position
    LIMIT $2
  )
  SELECT bound.scanned_to, matched.*
  FROM (SELECT max(position) AS scanned_to FROM scanned) AS bound
  LEFT JOIN LATERAL (
    SELECT * FROM scanned
    WHERE ($3::text[] IS NULL OR split_part(stream, '-', 1) = ANY($3::text[]))
      AND ($4::text[] IS NULL OR type = ANY($4::text[]))
  ) AS matched ON true
  ORDER BY matched.position`;

type ReadAllRow = PostgresEventRow & { readonly scanned_to: string | null };

export async function readAllPostgres(pool: Pool, options: ReadAllOptions = {}): Promise<ReadAllResult> {
  const after = options.after ?? 0;
  const { categories, types } = options.filter ?? {};
  const { rows } = await pool.query<ReadAllRow>(READ_ALL, [after, options.max ?? 1000, categories ?? null, types ?? null]);
  const scannedTo = rows[0]?.scanned_to;
  if (scannedTo === null || scannedTo === undefined) return { events: [], position: after };
  return {
    events: rows.filter((row) => row.id !== null).map(fromPostgresRow),
    position: Number(scannedTo),
  };
}
