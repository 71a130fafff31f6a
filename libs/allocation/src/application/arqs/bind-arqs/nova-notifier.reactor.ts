import type { EventStore, RecordedEvent } from '@ledger/eventstore';
import { PositionNotReachedError, type Reactor, ReactorUnavailableError } from '@ledger/processing';
import { arqDecider } from '../../../domain/arq.decider';
import { type ArqEvent, arqStream } from '../../../domain/arq.events';
import type { ArqState } from '../../../domain/arq.state';
import { novaNotice } from '../../../domain/nova-notice';
import type { NovaEvents } from '../../nova/nova-events.port';

export interface NovaNotifierPorts {
  readonly nova: NovaEvents;
  readonly store: Pick<EventStore, 'readStream'>;
  /** Resolves once the projections include `position` (rejects with PositionNotReachedError after a while). */
  readonly projectionsReached: (position: number) => Promise<void>;
  /** The requests the arqs read model holds for an instance. */
  readonly arqsOfInstance: (instanceUuid: string) => Promise<readonly string[]>;
}

/**
 * Tells Nova when an instance's binds are over (`accelerator-request-bound`,
 * CYBORG-V2.md §7), as a reactor: its pending work is its checkpoint, so a
 * rebuild of the arqs projection loses nothing and replays nothing.
 *
 * For each resolution (Bound, BindFailed) it first waits until the
 * projections include it — Nova never hears of a resolution that a poll of
 * `?instance=` would not show — then judges the instance's requests as they
 * stood at that position (folded from their streams, so the answer does not
 * depend on how far the read model has moved since), and posts once the
 * resolution completed the set. The post is keyed by the event's id.
 * It starts at the log's head: a resolution from before it first ran is old news.
 */
export function novaNotifierReactor(ports: NovaNotifierPorts): Reactor {
  const stateAt = async (uuid: string, position: number): Promise<ArqState> => {
    const events = await ports.store.readStream(arqStream(uuid));
    return events.filter((event) => event.position <= position).reduce((state, event) => arqDecider.evolve(state, event as RecordedEvent & ArqEvent), arqDecider.initialState());
  };
  return {
    name: 'nova-notifier',
    handles: ['allocation.ArqBound', 'allocation.ArqBindFailed'],
    filter: { categories: ['arq'] },
    startAt: 'head',
    async react(event, { signal }) {
      const resolved = await stateAt((event.data as { uuid: string }).uuid, event.position);
      if (resolved.status !== 'live' || !resolved.binding) return;
      const instanceUuid = resolved.binding.instanceUuid;
      try {
        await ports.projectionsReached(event.position);
      } catch (error) {
        if (error instanceof PositionNotReachedError) throw new ReactorUnavailableError(`the projections have not reached position ${event.position} yet`);
        throw error;
      }
      const uuids = new Set([resolved.uuid, ...(await ports.arqsOfInstance(instanceUuid))]);
      const requests = await Promise.all([...uuids].map((uuid) => stateAt(uuid, event.position)));
      const notice = novaNotice(instanceUuid, requests);
      if (notice.length > 0) await ports.nova.acceleratorRequestsBound(notice, { key: event.id, signal });
    },
  };
}
