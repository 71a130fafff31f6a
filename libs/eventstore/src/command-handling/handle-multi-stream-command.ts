import { type Decider, type DomainEvent, foldEvents } from '@ledger/kernel';
import type { EventStore, StreamAppend } from '../event-store.port';
import { InvalidAppendError } from '../errors/invalid-append.error';
import { WrongExpectedVersionError } from '../errors/wrong-expected-version.error';
import type { AggregateCache } from './aggregate-cache';
import { type CommandContext, type SchemaVersions, toNewEvents } from './command-context';
import { loadAggregate } from './handle-command';
import type { StreamLocks } from './stream-locks';

/** One aggregate a decision reads, and may append to. */
export interface Participant<State, Event extends DomainEvent> {
  readonly stream: string;
  readonly decider: Pick<Decider<unknown, State, Event>, 'evolve' | 'initialState'>;
  /** Keeps folded states between calls, as for handleCommand. */
  readonly cache?: AggregateCache<State>;
  /** The metadata of this participant's events when it is not the command's: a fact recorded in another's append, as its own requester asked it. */
  readonly context?: CommandContext;
}

// `any` lets each role keep its own state and event types; the mapped types below recover them.
type Participants = Readonly<Record<string, Participant<any, any>>>;

/** Each role's current state, by the role names the caller chose (`{ arq, device, quota }`). */
export type ParticipantStates<P extends Participants> = { readonly [Role in keyof P]: P[Role] extends Participant<infer State, DomainEvent> ? State : never };

/** What a decision appends, by role; a role left out (or given []) is not appended to. */
export type ParticipantEvents<P extends Participants> = {
  readonly [Role in keyof P]?: readonly (P[Role] extends Participant<unknown, infer Event> ? Event : never)[];
};

export interface HandleMultiStreamCommandOptions {
  /** Attempts when another writer changed one of the streams in between (default 5). */
  readonly maxAttempts?: number;
  readonly schemaVersions?: SchemaVersions;
  /** Queues commands per stream in this process, taking every participant's stream (see StreamLocks). */
  readonly locks?: StreamLocks;
}

export interface MultiStreamCommandResult<P extends Participants> {
  /** Events appended, over every stream. */
  readonly appended: number;
  /** Global position of the last appended event, or undefined when nothing was appended. */
  readonly position: number | undefined;
  /** Every role's state after the decision. */
  readonly states: ParticipantStates<P>;
  /** Every role's stream version after the decision. */
  readonly versions: { readonly [Role in keyof P]: number };
  readonly events: ParticipantEvents<P>;
}

interface Loaded {
  readonly states: Record<string, unknown>;
  readonly versions: Record<string, number>;
}

/**
 * handleCommand for a decision over several aggregates (a bind with no
 * programming: the request, the device's attach handle, the project's
 * quota): load every participant → run `decide` over their states → append
 * what it returns to all their streams with one `appendMany`, each stream
 * expected at the version its state was read at → on a concurrency conflict,
 * reload and decide again.
 *
 * Only the streams the decision appends to are version-checked: a decision
 * that relies on a participant's state must give that participant an event.
 * On a store whose `multiStreamAppend` is false, a decision touching several
 * streams rejects with MultiStreamAppendUnsupportedError.
 */
export async function handleMultiStreamCommand<P extends Participants>(
  store: EventStore,
  participants: P,
  decide: (states: ParticipantStates<P>) => ParticipantEvents<P>,
  context: CommandContext,
  options: HandleMultiStreamCommandOptions = {},
): Promise<MultiStreamCommandResult<P>> {
  const roles = Object.keys(participants);
  const streams = roles.map((role) => participants[role].stream);
  if (new Set(streams).size !== streams.length) {
    throw new InvalidAppendError('two participants of one decision name the same stream', { streams });
  }
  if (options.locks) {
    const { locks, ...rest } = options;
    // Taken in name order, so two decisions over overlapping streams never wait on each other.
    const locked = [...streams].sort().reduceRight<() => Promise<MultiStreamCommandResult<P>>>(
      (inner, stream) => () => locks.run(stream, inner),
      () => handleMultiStreamCommand(store, participants, decide, context, rest),
    );
    return locked();
  }
  const maxAttempts = options.maxAttempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    // As in handleCommand: cached states are trusted without reading the streams' tails only when the
    // decision appends (the expected versions check them); nothing to do, or a refusal, is confirmed on fresh states.
    const cached = attempt === 1 ? cachedStates(participants, roles) : undefined;
    let loaded = cached ?? (await loadParticipants(store, participants, roles));
    let decision = cached ? decideOrUndefined(decide, loaded) : decide(loaded.states as ParticipantStates<P>);
    if (cached && (decision === undefined || appendedRoles(roles, decision).length === 0)) {
      loaded = await loadParticipants(store, participants, roles);
      decision = decide(loaded.states as ParticipantStates<P>);
    }
    if (decision === undefined) throw new Error('unreachable: a refusal on fresh states throws');
    const appending = appendedRoles(roles, decision);
    if (appending.length === 0) return resultOf(loaded, decision, 0, undefined);
    const appends: StreamAppend[] = appending.map((role) => ({
      stream: participants[role].stream,
      events: toNewEvents(decision[role] ?? [], participants[role].context ?? context, options.schemaVersions),
      expected: loaded.versions[role],
    }));
    try {
      const results = await store.appendMany(appends);
      const after: Loaded = { states: { ...loaded.states }, versions: { ...loaded.versions } };
      appending.forEach((role, index) => {
        const participant = participants[role];
        after.states[role] = foldEvents(participant.decider, loaded.states[role], decision[role] ?? []);
        after.versions[role] = results[index].version;
        participant.cache?.set(participant.stream, after.states[role], results[index].version);
      });
      const appended = appends.reduce((count, append) => count + append.events.length, 0);
      return resultOf(after, decision, appended, results[results.length - 1].position);
    } catch (error) {
      // Cached states stay: each is a true prefix of its stream, and the next attempt reads only the tails after them.
      if (!(error instanceof WrongExpectedVersionError) || attempt >= maxAttempts) throw error;
    }
  }
}

/** Every participant's cached state, or undefined unless all of them are cached. */
function cachedStates(participants: Participants, roles: readonly string[]): Loaded | undefined {
  const loaded: Loaded = { states: {}, versions: {} };
  for (const role of roles) {
    const entry = participants[role].cache?.get(participants[role].stream);
    if (!entry) return undefined;
    loaded.states[role] = entry.state;
    loaded.versions[role] = entry.version;
  }
  return loaded;
}

async function loadParticipants(store: EventStore, participants: Participants, roles: readonly string[]): Promise<Loaded> {
  const aggregates = await Promise.all(roles.map((role) => loadAggregate(store, participants[role].stream, participants[role].decider, participants[role].cache)));
  const loaded: Loaded = { states: {}, versions: {} };
  roles.forEach((role, index) => {
    loaded.states[role] = aggregates[index].state;
    loaded.versions[role] = aggregates[index].version;
  });
  return loaded;
}

/** The roles the decision gives events to, in the participants' order: the order their streams are appended in. */
function appendedRoles<P extends Participants>(roles: readonly string[], decision: ParticipantEvents<P>): string[] {
  return roles.filter((role) => (decision[role]?.length ?? 0) > 0);
}

function resultOf<P extends Participants>(loaded: Loaded, events: ParticipantEvents<P>, appended: number, position: number | undefined): MultiStreamCommandResult<P> {
  return {
    appended,
    position,
    states: loaded.states as ParticipantStates<P>,
    versions: loaded.versions as MultiStreamCommandResult<P>['versions'],
    events,
  };
}

/** A decision, or undefined for a refusal (to be confirmed on fresh states). */
function decideOrUndefined<P extends Participants>(decide: (states: ParticipantStates<P>) => ParticipantEvents<P>, loaded: Loaded): ParticipantEvents<P> | undefined {
  try {
    return decide(loaded.states as ParticipantStates<P>);
  } catch {
    return undefined;
  }
}
