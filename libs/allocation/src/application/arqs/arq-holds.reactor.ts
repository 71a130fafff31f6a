import type { CommandContext, EventStore, RecordedEvent } from '@ledger/eventstore';
import { isUuid } from '@ledger/kernel';
import { type Reactor, ReactorUnavailableError } from '@ledger/processing';
import type { QuotaReserved } from '@ledger/quota';
import { arqDecider } from '../../domain/arq.decider';
import { type ArqEvent, arqStream } from '../../domain/arq.events';
import type { ArqState } from '../../domain/arq.state';
import type { ArqHolds } from './arq-holds';
import { capacityConsumer } from './capacity-quota';

/** A reservation whose request never appeared is an orphan after this many looks (the backoff spreads them over seconds). */
export const ORPHAN_RESERVATION_LOOKS = 5;
/** How many appends (each waited for up to CREATE_WAIT_MS) a look lets a running create take to record its request. */
const CREATE_WAIT_APPENDS = 20;
const CREATE_WAIT_MS = 100;

export interface ArqHoldsPorts {
  readonly store: Pick<EventStore, 'readStream' | 'waitForAppend'>;
  readonly holds: Pick<ArqHolds, 'releaseBinding' | 'releaseAll'>;
}

/** A release carries on the correlation id of the event that called for it (an unbind, a delete, a reservation). */
const contextOf = (cause: RecordedEvent): CommandContext => ({
  actor: { user: 'ledger:arq-holds', project: null, roles: ['service'] },
  correlationId: cause.metadata.correlationId,
  causationId: cause.id,
});

/**
 * Makes sure what a request holds outside its stream is given back once it
 * no longer needs it, whatever process died in between (the durable half of
 * unbind and delete, whose handlers release at once too):
 * - after an unbind: its attach handle and capacity charge;
 * - after a delete: everything;
 * - a unit reservation whose request was never recorded (a create that died
 *   between reserving and recording) is released once the request is still
 *   absent after ORPHAN_RESERVATION_LOOKS looks.
 * Every release is idempotent (nothing held: nothing appended), so
 * redelivery is harmless. A failed bind gives back its own holds (its workflow's compensation).
 */
export function arqHoldsReactor(ports: ArqHoldsPorts): Reactor {
  const stateBefore = async (uuid: string, version: number): Promise<ArqState> =>
    (await ports.store.readStream(arqStream(uuid)))
      .filter((event) => event.version < version)
      .reduce((state, event) => arqDecider.evolve(state, event as RecordedEvent & ArqEvent), arqDecider.initialState());
  const react = async (event: RecordedEvent, attempt: number): Promise<void> => {
    if (event.type === 'quota.Reserved') return releaseIfOrphan(event as RecordedEvent & QuotaReserved, attempt);
    const uuid = (event.data as { uuid: string }).uuid;
    const before = await stateBefore(uuid, event.version);
    if (before.status !== 'live') return;
    const arq = { uuid, projectId: before.projectId, deviceUuid: before.binding?.deviceUuid ?? null };
    if (event.type === 'allocation.ArqUnbound') await ports.holds.releaseBinding(arq, contextOf(event));
    else await ports.holds.releaseAll(arq, contextOf(event));
  };
  return {
    name: 'arq-holds',
    handles: ['allocation.ArqUnbound', 'allocation.ArqDeleted', 'quota.Reserved'],
    filter: { categories: ['arq', 'quota'] },
    startAt: 'head',
    react: (event, { attempt }) => react(event, attempt),
    // Most events need nothing (a request that was recorded, a release already made): a batch is one
    // checkpoint write, not one per event. Releases are idempotent, so a batch sent again is harmless.
    async reactBatch(events, { attempt }) {
      for (const event of events) await react(event, attempt);
    },
  };

  /**
   * Whether the request is recorded, giving a create that is still running
   * (it reserves, then records the request at once) a moment: the wait ends
   * at the first append that records it, so the common case costs no retry.
   */
  async function recorded(arqUuid: string): Promise<boolean> {
    for (let look = 0; look < CREATE_WAIT_APPENDS; look++) {
      if ((await ports.store.readStream(arqStream(arqUuid))).length > 0) return true;
      await ports.store.waitForAppend(CREATE_WAIT_MS);
    }
    return (await ports.store.readStream(arqStream(arqUuid))).length > 0;
  }

  async function releaseIfOrphan(event: RecordedEvent & QuotaReserved, attempt: number): Promise<void> {
    const { consumerId, project } = event.data;
    const arqUuid = consumerId.endsWith(':capacity') ? consumerId.slice(0, -':capacity'.length) : consumerId;
    // Only a request's unit reservation (its id a uuid): capacity charges belong to bind workflows, other consumers to their own owners.
    if (consumerId === capacityConsumer(arqUuid) || !isUuid(consumerId) || (await recorded(arqUuid))) return;
    // The message names no request: reactor statuses are shown on /readyz, to every caller.
    if (attempt < ORPHAN_RESERVATION_LOOKS) throw new ReactorUnavailableError('a unit reservation whose request is not recorded yet is looked at again');
    await ports.holds.releaseAll({ uuid: arqUuid, projectId: project, deviceUuid: null }, contextOf(event));
  }
}
