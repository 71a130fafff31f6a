import type { QuotaResources } from '../quota-resources';
import type { QuotaLimitSet, QuotaReleased, QuotaReserved } from '../quota.events';

/** Event builders for quota tests: project `p1` unless given. */
export const limitSet = (resource: string, limit: number | null, project = 'p1'): QuotaLimitSet => ({
  type: 'quota.LimitSet',
  data: { project, resource, limit },
});

export const reserved = (consumerId: string, resources: QuotaResources, project = 'p1'): QuotaReserved => ({
  type: 'quota.Reserved',
  data: { project, consumerId, resources },
});

export const released = (consumerId: string, resources: QuotaResources, project = 'p1'): QuotaReleased => ({
  type: 'quota.Released',
  data: { project, consumerId, resources },
});
