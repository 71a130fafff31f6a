import type { Pool } from 'pg';
import type { ReadAllOptions, ReadAllResult } from '../../event-store.port';
import { EVENT_COLUMNS, fromPostgresRow, type PostgresEventRow } from './postgres-row';

/**
 * Gap safety comes from the writers' head-row lock: a batch takes its
 * positions under the lock and holds it until it has committed, so when a
 * reader's snapshot shows position p, every position below p was committed
 * earlier and is in the same snapshot. The visible rows are therefore always
 * a gap-free prefix of the log; the window below is cut at the first gap
 * anyway, so a reader can never pass a missing position.
 *
 * (Emmett's rule — read only rows whose transaction id is below the snapshot's
 * xmin — is unsafe here: transaction ids are handed out before the lock is
 * taken, so they are not in position order, and with three writers the rule
 * shows a later position while hiding an earlier, committed one.)
 *
 * The filter applies inside the window, and the window's end is returned
 * even when the filter dropped everything, so a filtered reader keeps moving.
 * The category is the stream name up to its first dash (see streamCategory).
 */
const READ_ALL = `
  WITH candidates AS (
    SELECT ${EVENT_COLUMNS}, position - $1 - row_number() OVER (ORDER BY position) AS gap
    FROM (SELECT ${EVENT_COLUMNS} FROM ledger_events WHERE position > $1 ORDER BY position LIMIT $2) AS window_rows
  ), scanned AS (
    SELECT ${EVENT_COLUMNS} FROM candidates WHERE gap = 0
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
