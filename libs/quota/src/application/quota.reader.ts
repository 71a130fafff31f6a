import { type AggregateCache, type EventStore, loadAggregate } from '@ledger/eventstore';
import { quotaStream } from '../domain/quota-project';
import type { QuotaResources } from '../domain/quota-resources';
import type { ReserveQuota } from '../domain/quota.commands';
import { quotaDecider } from '../domain/quota.decider';
import type { QuotaState } from '../domain/quota.state';

/** One project's quota as the command side enforces it. */
export interface QuotaSnapshot {
  readonly project: string;
  /** Limit per resource; a resource without an entry is unlimited. */
  readonly limits: QuotaResources;
  /** Amount in use per resource; resources with nothing in use have no entry. */
  readonly usage: QuotaResources;
  /** Who holds what, by consumer id. */
  readonly reservations: readonly { readonly consumerId: string; readonly resources: QuotaResources }[];
  /** The quota stream's version (0 for a project never touched). */
  readonly version: number;
}

/**
 * Reads a project's quota from its stream, not from a projection: the
 * answer is exactly what the next reservation will be checked against, with
 * no wait for processors (and none on an API replica that runs none). It
 * shares the handlers' cache, so a read costs one query for the stream's tail.
 * Nest-free, so other contexts use it through the public face; QuotaModule
 * provides it.
 */
export class QuotaReader {
  constructor(
    private readonly store: EventStore,
    private readonly cache: AggregateCache<QuotaState>,
  ) {}

  /** Throws QUOTA.INVALID for a malformed project id. */
  async read(project: string): Promise<QuotaSnapshot> {
    const { state, version } = await loadAggregate(this.store, quotaStream(project), quotaDecider, this.cache);
    return {
      project,
      limits: state.limits,
      usage: state.usage,
      reservations: state.reservations.entries().map(([consumerId, resources]) => ({ consumerId, resources })),
      version,
    };
  }

  /**
   * Throws what reserving `consumers` now would throw (QUOTA.EXCEEDED),
   * recording nothing: a check before a process that reserves later. A
   * reservation racing in between can still refuse the real one.
   */
  async assertAdmits(project: string, consumers: ReserveQuota['consumers']): Promise<void> {
    const { state } = await loadAggregate(this.store, quotaStream(project), quotaDecider, this.cache);
    quotaDecider.decide({ type: 'ReserveQuota', project, consumers }, state);
  }
}
