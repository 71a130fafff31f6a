import { decodePageCursor, encodePageCursor, pageLimitOf } from '@ledger/kernel';

export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '@ledger/kernel';

const QUERY_INVALID = 'INVENTORY.QUERY_INVALID';

/** The page size asked for, checked: an integer from 1 to 1000, default 100. */
export const pageLimit = (limit: number | undefined): number => pageLimitOf(limit, QUERY_INVALID);

export const encodeCursor = encodePageCursor;

/** The sort key inside `cursor` (of `length` strings), or undefined for the first page. */
export const decodeCursor = (cursor: string | undefined, length: number): string[] | undefined => decodePageCursor(cursor, length, QUERY_INVALID);
