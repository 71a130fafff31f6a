import { type Decider, type DomainEvent, foldEvents } from '@ledger/kernel';
import type { EventStore } from '../event-store.port';
import { WrongExpectedVersionError } from '../errors/wrong-expected-version.error';
import type { AggregateCache } from './aggregate-cache';
import { type CommandContext, type SchemaVersions, toNewEvents } from './command-context';
import type { StreamFreshness } from './stream-freshness';
import type { StreamLocks } from './stream-locks';

export interface HandleCommandOptions<State> {
  /** Attempts when another writer changed the stream in between (default 5). */
  readonly maxAttempts?: number;
  /** Keeps folded states between calls so a hot stream is not re-read whole. */
  readonly cache?: AggregateCache<State>;
  readonly schemaVersions?: SchemaVersions;
  /** Queues commands per stream in this process (see StreamLocks). */
  readonly locks?: StreamLocks;
  /** Says when a cached state is known current, so that its tail need not be read (see StreamVersionWatch). */
  readonly freshness?: StreamFreshness;
}

export interface CommandResult<State> {
  readonly appended: number;
  /** Stream version after the command (unchanged when nothing was appended). */
  readonly version: number;
  /** Global position of the last appended event, or undefined when nothing was appended. */
  readonly position: number | undefined;
  readonly state: State;
  readonly events: readonly DomainEvent[];
}

/**
 * The one way to run a command against an aggregate: load (from the cache
 * and the stream's tail) → decide → append with the expected version → on a
 * concurrency conflict, reload and decide again.
 */
export async function handleCommand<Command, State, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, State, Event>,
  command: Command,
  context: CommandContext,
  options: HandleCommandOptions<State> = {},
): Promise<CommandResult<State>> {
  if (options.locks) {
    const { locks, ...rest } = options;
    return locks.run(stream, () => handleCommand(store, stream, decider, command, context, rest));
  }
  const maxAttempts = options.maxAttempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    // A cached state is used without reading the stream's tail when the command appends: the expected
    // version checks that nothing came in between. Nothing to do, or a refusal, is only trusted once
    // the tail confirms it (another writer — a replica, a sweeper — may have moved the stream on),
    // or the freshness knows nothing moved it (StreamVersionWatch).
    const cached = attempt === 1 ? options.cache?.get(stream) : undefined;
    let { state, version } = cached ?? (await loadAggregate(store, stream, decider, options.cache, options.freshness));
    let events = cached ? decideOrUndefined(decider, command, state) : decider.decide(command, state);
    if (cached && (events === undefined || events.length === 0)) {
      ({ state, version } = await loadAggregate(store, stream, decider, options.cache, options.freshness));
      events = decider.decide(command, state);
    }
    if (events === undefined) throw new Error('unreachable: a refusal on a fresh state throws');
    if (events.length === 0) {
      return { appended: 0, version, position: undefined, state, events };
    }
    try {
      const mark = options.freshness?.mark();
      const result = await store.append(stream, toNewEvents(events, context, options.schemaVersions), { expected: version });
      const next = foldEvents(decider, state, events);
      options.cache?.set(stream, next, result.version);
      // The expected version held, so the stream was exactly this at the commit.
      options.freshness?.confirm(stream, result.version, mark);
      return { appended: events.length, version: result.version, position: result.position, state: next, events };
    } catch (error) {
      // The cached state stays: it is a true prefix of the stream, and the next attempt reads only the tail
      // after it. Dropping it made every lost race re-read the whole stream (a busy device's thousands of claims).
      if (!(error instanceof WrongExpectedVersionError) || attempt >= maxAttempts) throw error;
    }
  }
}

/** Current state and version of a stream, reading only what the cache has not seen. */
export async function loadAggregate<State, Event extends DomainEvent>(
  store: EventStore,
  stream: string,
  decider: Pick<Decider<unknown, State, Event>, 'evolve' | 'initialState'>,
  cache?: AggregateCache<State>,
  freshness?: StreamFreshness,
): Promise<{ state: State; version: number }> {
  const cached = cache?.get(stream);
  if (cached !== undefined && freshness?.isCurrent(stream, cached.version)) return cached;
  const base = cached ?? { state: decider.initialState(), version: 0 };
  const mark = freshness?.mark();
  const tail = await store.readStream(stream, { fromVersion: base.version + 1 });
  const version = tail.length === 0 ? base.version : tail[tail.length - 1].version;
  // Only a cached state is worth confirming: without a cache the stream is read whole next time anyway.
  if (cache !== undefined) freshness?.confirm(stream, version, mark);
  if (tail.length === 0) return base;
  const state = foldEvents(decider, base.state, tail as unknown as Event[]);
  cache?.set(stream, state, version);
  return { state, version };
}

/** A decision, or undefined for a refusal (to be confirmed on a fresh state). */
function decideOrUndefined<Command, State, Event extends DomainEvent>(
  decider: Decider<Command, State, Event>,
  command: Command,
  state: State,
): readonly Event[] | undefined {
  try {
    return decider.decide(command, state);
  } catch {
    return undefined;
  }
}
