import { ValidationError } from '@ledger/kernel';
import type { SearchRequest } from '@ledger/projections/inventory';

const QUERY_INVALID = 'INVENTORY.QUERY_INVALID';

/** The query string as Fastify parses it: a repeated parameter arrives as a list. */
export type RawQuery = Record<string, string | string[] | undefined>;

/** One query parameter's value; a repeated one is refused rather than guessed at. */
export function single(query: RawQuery, name: string): string | undefined {
  const value = query?.[name];
  if (Array.isArray(value)) throw new ValidationError(QUERY_INVALID, `${name} may be given once`, { parameter: name });
  return value === undefined || value === '' ? undefined : value;
}

/** A positive integer parameter (`limit`, `deployable_id`). */
export function positiveInteger(query: RawQuery, name: string): number | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  const number = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= 1)) throw new ValidationError(QUERY_INVALID, `${name} must be a positive integer`, { parameter: name, value: value.slice(0, 64) });
  return number;
}

/**
 * Cyborg's list filters that map to our columns, given as query parameters
 * (`?limit=2&sort_key=created_at&sort_dir=desc`, as openstacksdk sends
 * them): `limit`, and `sort_key` over the Cyborg field names in `sortKeys`.
 * Like Cyborg, parameters that are no filter are ignored; `marker` is too,
 * as Cyborg's own is broken (CYBORG-V2.md §1.6).
 */
export function cyborgSearch<SortKey extends string>(query: RawQuery, sortKeys: Readonly<Record<string, SortKey>>): SearchRequest<SortKey> {
  const sortKey = single(query, 'sort_key');
  const sortDir = single(query, 'sort_dir')?.toLowerCase();
  if (sortKey !== undefined && !Object.hasOwn(sortKeys, sortKey)) {
    throw new ValidationError(QUERY_INVALID, `sort_key must be one of ${Object.keys(sortKeys).join(', ')}`, { parameter: 'sort_key' });
  }
  if (sortDir !== undefined && sortDir !== 'asc' && sortDir !== 'desc') {
    throw new ValidationError(QUERY_INVALID, 'sort_dir must be asc or desc', { parameter: 'sort_dir' });
  }
  return {
    limit: positiveInteger(query, 'limit'),
    sortBy: sortKey === undefined ? undefined : sortKeys[sortKey],
    sortDirection: sortDir,
  };
}
