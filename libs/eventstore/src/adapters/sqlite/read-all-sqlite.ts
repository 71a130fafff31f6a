import type { ReadAllOptions, ReadAllResult } from '../../event-store.port';
import { fromSqliteRow } from './sqlite-row';
import type { SqliteStatements } from './sqlite-statements';

/**
 * Scans up to `max` positions after `after`, then returns the matching
 * events in that window. The window's end is the returned position even
 * when the filter dropped everything, so a filtered reader keeps moving.
 * Every position up to the bound is committed (positions are handed out
 * under the write lock), so the second statement sees the whole window.
 */
export function readAllSqlite(statements: SqliteStatements, options: ReadAllOptions = {}): ReadAllResult {
  const after = options.after ?? 0;
  if (!options.filter) {
    // Unfiltered, the window is just the next `max` rows: one statement.
    const rows = statements.readAfter(options.max ?? 1000).all(after);
    return { events: rows.map(fromSqliteRow), position: rows.length > 0 ? rows[rows.length - 1][0] : after };
  }
  const upto = statements.scanBound(options.max ?? 1000).get(after)?.upto ?? null;
  if (upto === null) return { events: [], position: after };
  const { categories, types } = options.filter ?? {};
  const rows = statements.readRange.all({
    after,
    upto,
    categories: categories ? JSON.stringify(categories) : null,
    types: types ? JSON.stringify(types) : null,
  });
  return { events: rows.map(fromSqliteRow), position: upto };
}
