import type { QuotaResources } from './quota-resources';

/** Sets or removes (null) limits; only limits that change are recorded. */
export interface SetQuotaLimits {
  readonly type: 'SetQuotaLimits';
  readonly project: string;
  readonly limits: Readonly<Record<string, number | null>>;
}

/** What one consumer (an accelerator request) asks to hold. */
export interface QuotaConsumer {
  readonly consumerId: string;
  readonly resources: QuotaResources;
}

/** Reserves for every consumer or for none. */
export interface ReserveQuota {
  readonly type: 'ReserveQuota';
  readonly project: string;
  readonly consumers: readonly QuotaConsumer[];
}

/** Gives back what the consumers hold; ids holding nothing are ignored. */
export interface ReleaseQuota {
  readonly type: 'ReleaseQuota';
  readonly project: string;
  readonly consumerIds: readonly string[];
}

export type QuotaCommand = SetQuotaLimits | ReserveQuota | ReleaseQuota;
