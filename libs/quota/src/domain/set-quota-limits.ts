import { assertQuotaProjectId } from './quota-project';
import { MAX_QUOTA_LIMIT, resourceEntries } from './quota-resources';
import type { SetQuotaLimits } from './quota.commands';
import { QuotaInvalidError } from './quota.errors';
import type { QuotaLimitSet } from './quota.events';
import type { QuotaState } from './quota.state';

/**
 * One LimitSet per limit that changes. A limit below what is in use is
 * accepted: existing reservations stay, new ones of that resource are
 * refused until usage falls below it.
 */
export function decideSetQuotaLimits(command: SetQuotaLimits, state: QuotaState): QuotaLimitSet[] {
  assertQuotaProjectId(command.project);
  const entries = resourceEntries(command.limits, 'limits');
  for (const [resource, limit] of entries) {
    if (limit !== null && !(Number.isInteger(limit) && (limit as number) >= 0 && (limit as number) <= MAX_QUOTA_LIMIT)) {
      throw new QuotaInvalidError(`limits.${resource}`, `must be an integer from 0 to ${MAX_QUOTA_LIMIT}, or null to remove the limit`, limit);
    }
  }
  return entries
    .filter(([resource, limit]) => (state.limits[resource] ?? null) !== limit)
    .map(([resource, limit]) => ({ type: 'quota.LimitSet', data: { project: command.project, resource, limit: limit as number | null } }));
}
