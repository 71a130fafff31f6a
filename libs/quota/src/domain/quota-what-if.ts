import { decideReleaseQuota } from './release-quota';
import { decideReserveQuota } from './reserve-quota';
import { decideSetQuotaLimits } from './set-quota-limits';
import { QuotaExceededError } from './quota.errors';
import type { QuotaEvent } from './quota.events';
import { evolveQuota, initialQuotaState, type QuotaState } from './quota.state';

/** Another policy to try: per project, the limits the quota API takes (`PUT /api/v1/quotas/{project}` body). */
export type QuotaPolicy = Readonly<Record<string, { readonly limits: Readonly<Record<string, number | null>> }>>;

/** A reservation the other policy would have refused. */
export interface WhatIfRefusal {
  /** The consumer: the accelerator request that asked. */
  readonly consumerId: string;
  readonly project: string;
  readonly recordedAt: string;
  readonly position: number;
  readonly resource: string;
  readonly limit: number;
  readonly inUse: number;
  readonly requested: number;
}

/** A recorded quota event, as much of its envelope as the replay reads. */
export type PlacedQuotaEvent = QuotaEvent & { readonly position: number; readonly recordedAt: string };

/**
 * Replays the quota history against another policy: the projects the
 * policy names get its limits from the start (their recorded limit changes
 * are ignored), the others keep theirs. Each recorded reservation is decided
 * again by the quota decider; one it refuses is listed and never held, so
 * it takes nothing from later requests, as a refused request would not have.
 */
export class QuotaWhatIf {
  private readonly states = new Map<string, QuotaState>();
  readonly refusals: WhatIfRefusal[] = [];

  constructor(private readonly policy: QuotaPolicy) {
    for (const [project, { limits }] of Object.entries(policy)) {
      const initial = initialQuotaState();
      this.states.set(project, decideSetQuotaLimits({ type: 'SetQuotaLimits', project, limits }, initial).reduce(evolveQuota, initial));
    }
  }

  apply(event: PlacedQuotaEvent): void {
    const project = event.data.project;
    const state = this.states.get(project) ?? initialQuotaState();
    switch (event.type) {
      case 'quota.LimitSet':
        if (!(project in this.policy)) this.states.set(project, evolveQuota(state, event));
        return;
      case 'quota.Reserved':
        this.reserve(state, event);
        return;
      case 'quota.Released':
        this.states.set(project, decideReleaseQuota({ type: 'ReleaseQuota', project, consumerIds: [event.data.consumerId] }, state).reduce(evolveQuota, state));
    }
  }

  private reserve(state: QuotaState, event: PlacedQuotaEvent & { type: 'quota.Reserved' }): void {
    const { project, consumerId, resources } = event.data;
    try {
      const decided = decideReserveQuota({ type: 'ReserveQuota', project, consumers: [{ consumerId, resources }] }, state);
      this.states.set(project, decided.reduce(evolveQuota, state));
    } catch (error) {
      if (!(error instanceof QuotaExceededError)) throw error;
      const facts = error.facts as { resource: string; limit: number; inUse: number; requested: number };
      this.refusals.push({ consumerId, project, recordedAt: event.recordedAt, position: event.position, ...facts });
    }
  }
}
