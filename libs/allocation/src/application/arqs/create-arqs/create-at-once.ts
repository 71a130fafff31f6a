import { type AggregateCache, type CommandContext, EVENT_STORE, type EventStore, handleMultiStreamCommand, type Participant, STREAM_LOCKS, type StreamLocks } from '@ledger/eventstore';
import { QUOTA_CACHE, QUOTA_EVENT_SCHEMA_VERSIONS, quotaDecider, type QuotaEvent, type QuotaState, quotaStream, type ReserveQuota } from '@ledger/quota';
import { Inject, Injectable } from '@nestjs/common';
import { arqDecider, type CreateArq } from '../../../domain/arq.decider';
import type { ArqEvent } from '../../../domain/arq.events';
import type { ArqState } from '../../../domain/arq.state';
import { ArqStore } from '../arq-store';

/** The quota reservation that pays for the requests: one unit of its resource class per request, all or none. */
export function reservationFor(projectId: string, creates: readonly CreateArq[]): ReserveQuota {
  return {
    type: 'ReserveQuota',
    project: projectId,
    consumers: creates.map((create) => ({ consumerId: create.uuid, resources: { [create.resourceClass]: 1 } })),
  };
}

type QuotaRole = Participant<QuotaState, QuotaEvent>;
type ArqRole = Participant<ArqState, ArqEvent>;

/**
 * A create needs no hardware, so it is one decision over the project's quota
 * and the new requests: the reservation and every request appended to their
 * streams in one atomic append, each stream's expected version checked
 * (shared/DESIGN.md, "Consistency boundaries"), decided again when another
 * writer moved the quota in between. A crash leaves all of it or none, and a
 * refusal (over quota, an invalid request) records nothing.
 */
@Injectable()
export class CreateArqsAtOnce {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ArqStore) private readonly arqs: ArqStore,
    // The quota commands' own cache: one folded state per project in the process, not a second copy that lags it.
    @Inject(QUOTA_CACHE) private readonly quotas: AggregateCache<QuotaState>,
    // The locks the quota commands queue on: a create and a quota command on one project wait for each other.
    @Inject(STREAM_LOCKS) private readonly locks: StreamLocks,
  ) {}

  /** Whether this store can append one decision to several streams atomically (not on EventStoreDB: creates take two steps there). */
  get available(): boolean {
    return this.store.multiStreamAppend;
  }

  /** Each request's state after the create, in the order of `creates`. */
  async create(reservation: ReserveQuota, creates: readonly CreateArq[], context: CommandContext): Promise<ArqState[]> {
    // The requests' roles are their uuids (never 'quota'): the decision finds each request's state by its own uuid.
    const participants: Record<string, QuotaRole | ArqRole> = { quota: { stream: quotaStream(reservation.project), decider: quotaDecider, cache: this.quotas } };
    for (const create of creates) participants[create.uuid] = this.arqs.participant(create.uuid);
    const result = await handleMultiStreamCommand(
      this.store,
      participants,
      (states) => {
        // The quota first, as in two steps: over quota is the answer even when a request is also invalid.
        const events: Record<string, readonly (QuotaEvent | ArqEvent)[]> = { quota: quotaDecider.decide(reservation, states.quota as QuotaState) };
        for (const create of creates) events[create.uuid] = arqDecider.decide(create, states[create.uuid] as ArqState);
        return events;
      },
      context,
      { schemaVersions: QUOTA_EVENT_SCHEMA_VERSIONS, locks: this.locks },
    );
    return creates.map((create) => result.states[create.uuid] as ArqState);
  }
}
