import type { Provider } from '@nestjs/common';
import { AggregateCache, type CommandContext, deciderCommandHandler, EVENT_STORE, type EventStore, type Participant, STREAM_LOCKS, type StreamLocks } from '@ledger/eventstore';
import { type ArqCommand, arqDecider } from '../../domain/arq.decider';
import { ArqNotFoundError } from '../../domain/arq.errors';
import { type ArqEvent, arqStream } from '../../domain/arq.events';
import type { ArqState, LiveArq } from '../../domain/arq.state';
import type { ArqVisibility } from './arq-visibility';

/** Loads and changes accelerator requests through their own streams, addressed by request uuid. */
export interface ArqStore {
  load(uuid: string): Promise<ArqState>;
  /** A live request the caller may see; anything else is "not found" (another project's requests are not revealed). */
  loadVisible(uuid: string, visibility: ArqVisibility): Promise<LiveArq>;
  /** The request as one participant of a decision over several streams (handleMultiStreamCommand), sharing the commands' cache. */
  participant(uuid: string): Participant<ArqState, ArqEvent>;
  run(command: ArqCommand, context: CommandContext): Promise<ArqState>;
}

/** Nest token of the ArqStore (named as the type, so `@Inject(ArqStore) arqs: ArqStore` reads as one). */
export const ArqStore = Symbol('ArqStore');

/** The request commands' one deciderCommandHandler, queued on the process's stream locks, seen by request uuid. */
export function arqStore(store: EventStore, locks: StreamLocks): ArqStore {
  const commands = deciderCommandHandler(store, {
    decider: arqDecider,
    streamOf: (command) => arqStream(command.uuid),
    cache: new AggregateCache<ArqState>(50_000),
    locks,
  });
  const load = async (uuid: string) => (await commands.load(arqStream(uuid))).state;
  return {
    load,
    async loadVisible(uuid, visibility) {
      const state = await load(uuid);
      if (state.status !== 'live' || (visibility !== 'all-projects' && state.projectId !== visibility.project)) {
        throw new ArqNotFoundError(uuid);
      }
      return state;
    },
    participant: (uuid) => commands.participant(arqStream(uuid)),
    run: async (command, context) => (await commands.run(command, context)).state,
  };
}

export const arqStoreProvider: Provider = { provide: ArqStore, inject: [EVENT_STORE, STREAM_LOCKS], useFactory: arqStore };

/** Checks that a command would be accepted, without recording anything: validation before a multi-request operation starts. */
export function assertAccepted(state: ArqState, command: ArqCommand): void {
  arqDecider.decide(command, state);
}

export function liveOrThrow(state: ArqState, uuid: string): LiveArq {
  if (state.status !== 'live') throw new ArqNotFoundError(uuid);
  return state;
}
