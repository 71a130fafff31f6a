import { Inject, Injectable } from '@nestjs/common';
import { AggregateCache, type CommandContext, EVENT_STORE, type EventStore, handleCommand, loadAggregate, type Participant, StreamLocks } from '@ledger/eventstore';
import { type ArqCommand, arqDecider } from '../../domain/arq.decider';
import { ArqNotFoundError } from '../../domain/arq.errors';
import { type ArqEvent, arqStream } from '../../domain/arq.events';
import type { ArqState, LiveArq } from '../../domain/arq.state';
import type { ArqVisibility } from './arq-visibility';

/** Loads and changes accelerator requests through their own streams. */
@Injectable()
export class ArqStore {
  private readonly cache = new AggregateCache<ArqState>(50_000);
  private readonly locks = new StreamLocks();

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async load(uuid: string): Promise<ArqState> {
    return (await loadAggregate(this.store, arqStream(uuid), arqDecider, this.cache)).state;
  }

  /** A live request the caller may see; anything else is "not found" (another project's requests are not revealed). */
  async loadVisible(uuid: string, visibility: ArqVisibility): Promise<LiveArq> {
    const state = await this.load(uuid);
    if (state.status !== 'live' || (visibility !== 'all-projects' && state.projectId !== visibility.project)) {
      throw new ArqNotFoundError(uuid);
    }
    return state;
  }

  /** The request as one participant of a decision over several streams (handleMultiStreamCommand), sharing this store's cache. */
  participant(uuid: string): Participant<ArqState, ArqEvent> {
    return { stream: arqStream(uuid), decider: arqDecider, cache: this.cache };
  }

  async run(command: ArqCommand, context: CommandContext): Promise<ArqState> {
    const result = await handleCommand(this.store, arqStream(command.uuid), arqDecider, command, context, { cache: this.cache, locks: this.locks });
    return result.state;
  }
}

/** Checks that a command would be accepted, without recording anything: validation before a multi-request operation starts. */
export function assertAccepted(state: ArqState, command: ArqCommand): void {
  arqDecider.decide(command, state);
}

export function liveOrThrow(state: ArqState, uuid: string): LiveArq {
  if (state.status !== 'live') throw new ArqNotFoundError(uuid);
  return state;
}
