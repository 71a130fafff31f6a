import { isAdmin, type Principal } from '@ledger/auth';
import type { EventStore } from '@ledger/eventstore';
import { parseLogPoint, positionOfPoint } from '@ledger/processing';
import type { ProjectScope, TenancyRange } from '@ledger/projections/device-history';

/** An operator sees every project's use of a device; anyone else only their own project's (REST and GraphQL alike). */
export const projectScopeOf = (principal: Principal): ProjectScope => (isAdmin(principal) ? { all: true } : { project: principal.project ?? '' });

/**
 * The `from` and `to` of a tenancy question as positions: a time is the last
 * event recorded at or before it, as for `?asOf=` (AUDIT.BAD_LOG_POINT names
 * the one that is bad).
 */
export async function tenancyRangeOf(
  query: { readonly from?: string | null; readonly to?: string | null },
  store: Pick<EventStore, 'readAll' | 'headPosition'>,
): Promise<TenancyRange> {
  const from = query.from == null ? undefined : parseLogPoint(query.from, 'from');
  const to = query.to == null ? undefined : parseLogPoint(query.to, 'to');
  return {
    from: from && (await positionOfPoint(store, from)),
    to: to && (await positionOfPoint(store, to)),
  };
}
