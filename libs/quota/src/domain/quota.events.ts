import type { DomainEvent } from '@ledger/kernel';
import type { QuotaResources } from './quota-resources';

/** Event type names of the quota context. */
export const QuotaEventTypes = {
  LimitSet: 'quota.LimitSet',
  Reserved: 'quota.Reserved',
  Released: 'quota.Released',
} as const;

export type QuotaEventType = (typeof QuotaEventTypes)[keyof typeof QuotaEventTypes];

/** Schema version of each event type's data (upcast older versions on read). */
export const QUOTA_EVENT_SCHEMA_VERSIONS: Readonly<Record<QuotaEventType, number>> = {
  'quota.LimitSet': 1,
  'quota.Reserved': 1,
  'quota.Released': 1,
};

/** Every quota event type, for processor `handles` lists. */
export const QUOTA_EVENT_TYPES: readonly QuotaEventType[] = Object.values(QuotaEventTypes);

/** An operator set one resource's limit; `limit: null` removed it (the resource is unlimited again). */
export type QuotaLimitSet = DomainEvent<'quota.LimitSet', { readonly project: string; readonly resource: string; readonly limit: number | null }>;

/** A consumer (an accelerator request) now holds these amounts of the project's quota. */
export type QuotaReserved = DomainEvent<
  'quota.Reserved',
  { readonly project: string; readonly consumerId: string; readonly resources: QuotaResources }
>;

/** A consumer gave back everything it held. */
export type QuotaReleased = DomainEvent<
  'quota.Released',
  { readonly project: string; readonly consumerId: string; readonly resources: QuotaResources }
>;

export type QuotaEvent = QuotaLimitSet | QuotaReserved | QuotaReleased;
