import type { NewEvent, RecordedEvent } from './envelope';
import type { ExpectedVersion } from './expected-version';
import type { StoredEvent } from './hash-chain/stored-event';
import type { StoreLocation } from './store-location';

export interface AppendOptions {
  readonly expected: ExpectedVersion;
}

/** One stream's part of an `appendMany`. */
export interface StreamAppend {
  readonly stream: string;
  readonly events: readonly NewEvent[];
  readonly expected: ExpectedVersion;
}

export interface AppendResult {
  readonly stream: string;
  /** The stream's version after the append (the last appended event's version). */
  readonly version: number;
  /** Global position of the last appended event. */
  readonly position: number;
}

export interface ReadStreamOptions {
  /** First version to return (default 1). */
  readonly fromVersion?: number;
  /** Maximum number of events (default: all). */
  readonly max?: number;
}

/** Selects events by stream category (`device` matches `device-…`) and/or type. */
export interface EventFilter {
  readonly categories?: readonly string[];
  readonly types?: readonly string[];
}

export interface ReadAllOptions {
  /** Return events with a position greater than this (default 0: from the start). */
  readonly after?: number;
  /** Maximum number of events scanned (default 1000). */
  readonly max?: number;
  readonly filter?: EventFilter;
}

export interface ReadAllResult {
  readonly events: RecordedEvent[];
  /**
   * The position up to which the log was scanned: pass it as `after` next
   * time. It moves even when a filter dropped every event, and never passes
   * an event that a concurrent writer could still commit (gap safety).
   */
  readonly position: number;
}

export interface SubscribeOptions {
  /** Resume after this position (a checkpoint); default 0. */
  readonly after?: number;
  readonly filter?: EventFilter;
  /** Events per delivered batch (default 1000). */
  readonly batchSize?: number;
}

/**
 * A catch-up-then-live subscription: yields batches of events in position
 * order, first those already stored after the checkpoint, then new ones as
 * they are committed. Ends when `close()` is called or the store closes.
 */
export interface Subscription extends AsyncIterable<RecordedEvent[]> {
  close(): Promise<void>;
}

/** The event store port. Every adapter passes the contract suite in `testing/`. */
export interface EventStore {
  /** Which adapter this is: `sqlite`, `postgres` or `esdb`. */
  readonly kind: string;
  /**
   * Appends events to one stream atomically, if `expected` holds; otherwise
   * rejects with WrongExpectedVersionError and appends nothing.
   */
  append(stream: string, events: readonly NewEvent[], options: AppendOptions): Promise<AppendResult>;
  /**
   * Whether `appendMany` takes several streams. True on SQLite and
   * PostgreSQL; false on EventStoreDB, whose client has no atomic
   * multi-stream append (docs/architecture.md, "The event store").
   */
  readonly multiStreamAppend: boolean;
  /**
   * Appends to several streams as one commit, all or nothing:
   * - every stream's `expected` is checked against the stream as the commit
   *   finds it; if one does not hold, the call rejects with
   *   WrongExpectedVersionError naming that stream (the first in the order
   *   given), and nothing of any stream is appended;
   * - any other refusal (InvalidAppendError: a stream named twice, no
   *   appends, an append without events, an event id used twice in the call
   *   or already recorded) likewise appends nothing;
   * - the events take consecutive global positions, in the order given
   *   (stream by stream, each stream's events in order), and extend the
   *   hash chain like any append;
   * - readers never see part of it: `readAll` shows all of its events or
   *   none, `waitForAppend` and subscriptions wake once, for all of them.
   * Resolves with one result per stream, in the order given. A store with
   * `multiStreamAppend` false accepts one stream only and rejects more
   * with MultiStreamAppendUnsupportedError, appending nothing.
   */
  appendMany(appends: readonly StreamAppend[]): Promise<AppendResult[]>;
  /** Events of one stream in version order. An absent stream reads as []. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Events of the global log in position order, after a position. */
  readAll(options?: ReadAllOptions): Promise<ReadAllResult>;
  /**
   * Up to `max` events after `after` in position order, data and metadata as
   * the text stored: lets `audit verify` hash without decoding. Only stores
   * that keep the written text offer it (SQLite; PostgreSQL's jsonb does not).
   */
  readAllStored?(after: number, max: number): Promise<StoredEvent[]>;
  /**
   * Where another thread can open this same log (an SQLite file, a
   * PostgreSQL schema); absent, or undefined, for a store only this process
   * can read (in memory).
   */
  location?(): StoreLocation | undefined;
  /** Position of the last event a reader can see now (0 when empty). */
  headPosition(): Promise<number>;
  subscribe(options?: SubscribeOptions): Subscription;
  /**
   * Resolves at the next commit by any writer this store can observe, or
   * after `timeoutMs`: lets readers poll without busy-waiting.
   */
  waitForAppend(timeoutMs: number, signal?: AbortSignal): Promise<void>;
  /**
   * While this returns the same number, every commit to this log, by any
   * writer, has woken `waitForAppend` (this process's at once, other
   * processes' by their notification); a new number, or undefined, says some
   * may have gone unannounced (a notification connection lost, another
   * process's commit on the same file). Absent where commits are not
   * announced at all (EventStoreDB). Lets a process trust what it last read
   * of a stream until the next wake-up (StreamVersionWatch).
   */
  announcementEpoch?(): number | undefined;
  close(): Promise<void>;
}
