import type { Decider, DomainEvent } from '@ledger/kernel';
import type { EventStore } from '../event-store.port';
import type { AggregateCache } from './aggregate-cache';
import type { CommandContext, SchemaVersions } from './command-context';
import { type CommandResult, handleCommand, loadAggregate } from './handle-command';
import type { Participant } from './handle-multi-stream-command';
import type { StreamFreshness } from './stream-freshness';
import type { StreamLocks } from './stream-locks';

export interface DeciderCommandHandlerOptions<Command, State, Event extends DomainEvent> {
  readonly decider: Decider<Command, State, Event>;
  /** The stream a command is decided on; it may throw to refuse a command whose stream name would be invalid. */
  readonly streamOf: (command: Command) => string;
  /** Keeps folded states between calls; shared with whoever else decides over these streams (a multi-stream decision). */
  readonly cache?: AggregateCache<State>;
  /** Queues commands per stream in this process: the process's one StreamLocks (STREAM_LOCKS), so every writer of a stream queues on it. */
  readonly locks?: StreamLocks;
  readonly schemaVersions?: SchemaVersions;
  /** Lets a cached state whose stream is known not to have moved be trusted without reading its tail (the process's StreamVersionWatch). */
  readonly freshness?: StreamFreshness;
  /** Attempts when another writer changed the stream in between (default 5). */
  readonly maxAttempts?: number;
  /** The context the events are appended with, when the stream decides it (a job's later events carry its request's correlation). */
  readonly contextOf?: (command: Command, callerContext: CommandContext) => Promise<CommandContext>;
  /** What follows in this process from events just appended (waking long polls); not called when nothing was appended. */
  readonly afterAppend?: (result: AppendedResult<State>, context: CommandContext) => void;
}

/** A command's result when it appended something. */
export type AppendedResult<State> = CommandResult<State> & { readonly position: number };

/** One aggregate type's command side: every command on its streams runs through `run`. */
export interface DeciderCommandHandler<Command, State, Event extends DomainEvent> {
  run(command: Command, context: CommandContext): Promise<CommandResult<State>>;
  /** A stream's current state and version, through the cache. */
  load(stream: string): Promise<{ state: State; version: number }>;
  /** A stream as one participant of a decision over several streams (handleMultiStreamCommand), sharing the cache. */
  participant(stream: string): Participant<State, Event>;
}

/**
 * The one command runner, made per aggregate type (Emmett's
 * DeciderCommandHandler): queue on the stream's lock, load (cache and tail),
 * decide, append with the expected version, retry on a conflict
 * (handleCommand); then the context's own after-append step. What differs
 * between contexts is only these options.
 */
export function deciderCommandHandler<Command, State, Event extends DomainEvent>(
  store: EventStore,
  options: DeciderCommandHandlerOptions<Command, State, Event>,
): DeciderCommandHandler<Command, State, Event> {
  const { decider, streamOf, cache, locks, schemaVersions, freshness, maxAttempts, contextOf, afterAppend } = options;
  return {
    async run(command, callerContext) {
      const stream = streamOf(command);
      const context = contextOf ? await contextOf(command, callerContext) : callerContext;
      const result = await handleCommand(store, stream, decider, command, context, { cache, locks, schemaVersions, freshness, maxAttempts });
      if (afterAppend && result.position !== undefined) afterAppend(result as AppendedResult<State>, context);
      return result;
    },
    load: (stream) => loadAggregate(store, stream, decider, cache, freshness),
    participant: (stream) => ({ stream, decider, cache }),
  };
}
