import { ValidationError } from '../errors/common-errors';

export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1000;

/** The page size asked for, checked: an integer from 1 to 1000, default 100; else 400 with the list's `code`. */
export function pageLimitOf(limit: number | undefined, code: string): number {
  if (limit === undefined) return DEFAULT_PAGE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw new ValidationError(code, `limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`, { parameter: 'limit', value: limit });
  }
  return limit;
}

/** An opaque cursor: the sort key of the last item of a page, as base64url JSON. */
export const encodePageCursor = (key: readonly string[]): string => Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');

/** The sort key inside `cursor` (of `length` strings), or undefined for the first page; else 400 with the list's `code`. */
export function decodePageCursor(cursor: string | undefined, length: number, code: string): string[] | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(key) && key.length === length && key.every((part) => typeof part === 'string')) return key as string[];
  } catch {
    // fall through: any undecodable cursor is the caller's error
  }
  throw new ValidationError(code, 'cursor is not one this API issued', { parameter: 'cursor' });
}
