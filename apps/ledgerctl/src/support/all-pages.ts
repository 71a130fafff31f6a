import type { LedgerApiClient } from './ledger-api-client';

/** The largest page the ledger's keyset-paginated lists serve. */
const PAGE_LIMIT = 1000;

/**
 * Every item of a paginated list (`{items, nextCursor}`), following
 * `nextCursor` to the end. `path` may carry its own query (`?hostname=…`).
 */
export async function allPages<T>(client: Pick<LedgerApiClient, 'request'>, path: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: String(PAGE_LIMIT), ...(cursor === null ? {} : { cursor }) });
    const page: { items: T[]; nextCursor: string | null } = await client.request('GET', `${path}${path.includes('?') ? '&' : '?'}${query}`);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return items;
}
