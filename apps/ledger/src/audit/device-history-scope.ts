import { isAdmin, type Principal } from '@ledger/auth';
import { parseLogPoint } from '@ledger/processing';
import type { ProjectScope, TenancyRange } from '@ledger/projections/device-history';

/** An operator sees every project's use of a device; anyone else only their own project's (REST and GraphQL alike). */
export const projectScopeOf = (principal: Principal): ProjectScope => (isAdmin(principal) ? { all: true } : { project: principal.project ?? '' });

/** The `from` and `to` of a tenancy question, parsed as log points (AUDIT.BAD_LOG_POINT names the one that is bad). */
export const tenancyRangeOf = (query: { readonly from?: string | null; readonly to?: string | null }): TenancyRange => ({
  from: query.from == null ? undefined : parseLogPoint(query.from, 'from'),
  to: query.to == null ? undefined : parseLogPoint(query.to, 'to'),
});
