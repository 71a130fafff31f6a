import { decodePageCursor, encodePageCursor, pageLimitOf } from '@ledger/kernel';
import type { PageArgs } from './page.args';

export type SortKey = readonly [time: string, id: string];

/** A GraphQL argument the ledger cannot take (a page size out of range, a cursor it did not issue). */
export const GRAPHQL_ARGUMENT_INVALID = 'GRAPHQL.ARGUMENT_INVALID';

/**
 * A keyset page of a whole list that its query class returns unpaged (ARQs,
 * device profiles, bitstreams), in the order that class sorts it: `keyOf`
 * must be that order's key (a time, then an id), so a cursor resumes after
 * its row even when rows before it went away.
 */
export function pageOfList<T>(items: readonly T[], keyOf: (item: T) => SortKey, args: PageArgs): { items: T[]; nextCursor: string | null } {
  const limit = pageLimitOf(args.first ?? undefined, GRAPHQL_ARGUMENT_INVALID);
  const after = decodePageCursor(args.after ?? undefined, 2, GRAPHQL_ARGUMENT_INVALID);
  const rest = after ? items.filter((item) => compareKeys(keyOf(item), after) > 0) : items;
  const page = rest.slice(0, limit);
  const last = page.at(-1);
  return { items: page, nextCursor: rest.length > limit && last !== undefined ? encodePageCursor([...keyOf(last)]) : null };
}

function compareKeys(left: readonly string[], right: readonly string[]): number {
  for (let index = 0; index < left.length; index++) {
    if (left[index] !== right[index]) return left[index] < right[index] ? -1 : 1;
  }
  return 0;
}
