import { ValidationError } from '@ledger/kernel';
import type { AttributeView } from './inventory.views';

const QUERY_INVALID = 'INVENTORY.QUERY_INVALID';

export type SortDirection = 'asc' | 'desc';

/** Sortable fields of the unpaged device search, and their columns. */
export const DEVICE_SORT_COLUMNS = {
  uuid: 'uuid',
  type: 'type',
  vendorId: 'vendor_id',
  model: 'model',
  hostname: 'hostname',
  status: 'status',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
} as const;

/** Sortable fields of the unpaged deployable search, and their columns. */
export const DEPLOYABLE_SORT_COLUMNS = {
  uuid: 'uuid',
  name: 'name',
  hostname: 'hostname',
  count: 'count',
  rpUuid: 'rp_uuid',
  resourceClass: 'resource_class',
  driverName: 'driver_name',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
} as const;

/**
 * `ORDER BY` of an unpaged search: the field asked for (default: creation
 * time, the order Cyborg's integer ids give), then uuid so ties are stable,
 * and `LIMIT` when a limit is set.
 */
export function orderAndLimit<Columns extends Record<string, string>>(
  columns: Columns,
  sortBy: keyof Columns | undefined,
  direction: SortDirection | undefined,
  limit: number | undefined,
): string {
  const column = columns[(sortBy ?? 'createdAt') as keyof Columns];
  if (column === undefined) throw new ValidationError(QUERY_INVALID, `cannot sort by ${String(sortBy)}`, { parameter: 'sort' });
  const dir = direction ?? 'asc';
  if (dir !== 'asc' && dir !== 'desc') throw new ValidationError(QUERY_INVALID, 'the sort direction must be asc or desc', { parameter: 'sort' });
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1)) {
    throw new ValidationError(QUERY_INVALID, 'limit must be a positive integer', { parameter: 'limit', value: limit });
  }
  return `ORDER BY ${column} ${dir}, uuid ${dir}${limit === undefined ? '' : ` LIMIT ${limit}`}`;
}

/**
 * Attributes by deployable, each deployable's in Cyborg's order: `rc`,
 * `trait0…N` by number, then an operator's by creation time and key.
 */
export function compareAttributes(a: AttributeView, b: AttributeView): number {
  return compare(a.deployableUuid, b.deployableUuid) || rank(a) - rank(b) || compare(a.createdAt, b.createdAt) || compare(a.key, b.key);
}

const rank = (attribute: AttributeView): number =>
  attribute.origin === 'operator' ? Number.MAX_SAFE_INTEGER : attribute.key === 'rc' ? -1 : Number(attribute.key.slice('trait'.length));

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
