import type { QuotaResources } from './quota-resources';
import type { QuotaEvent } from './quota.events';
import { ReservationBook } from './reservation-book';

/**
 * One project's quota: limits, who holds what, and the totals in use. The
 * totals are kept by `evolve`, so checking a reservation costs one lookup
 * per resource whatever the number of reservations.
 */
export interface QuotaState {
  /** Limit per resource; a resource without an entry is unlimited. */
  readonly limits: QuotaResources;
  /** Amount in use per resource; resources with nothing in use have no entry. */
  readonly usage: QuotaResources;
  readonly reservations: ReservationBook;
}

export const initialQuotaState = (): QuotaState => ({ limits: {}, usage: {}, reservations: ReservationBook.empty });

export function evolveQuota(state: QuotaState, event: QuotaEvent): QuotaState {
  switch (event.type) {
    case 'quota.LimitSet': {
      const { [event.data.resource]: _previous, ...others } = state.limits;
      return { ...state, limits: event.data.limit === null ? others : { ...others, [event.data.resource]: event.data.limit } };
    }
    case 'quota.Reserved':
      return {
        ...state,
        usage: addUsage(state.usage, event.data.resources, 1),
        reservations: state.reservations.with(event.data.consumerId, event.data.resources),
      };
    case 'quota.Released': {
      // What the book holds is what was added to the totals, so that is what comes off.
      const held = state.reservations.get(event.data.consumerId);
      if (!held) return state;
      return { ...state, usage: addUsage(state.usage, held, -1), reservations: state.reservations.without(event.data.consumerId) };
    }
    default:
      return state;
  }
}

function addUsage(usage: QuotaResources, resources: QuotaResources, sign: 1 | -1): QuotaResources {
  const next: Record<string, number> = { ...usage };
  for (const [resource, amount] of Object.entries(resources)) {
    const total = (next[resource] ?? 0) + sign * amount;
    if (total > 0) next[resource] = total;
    else delete next[resource];
  }
  return next;
}
