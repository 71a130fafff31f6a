import { uuidV7 } from '@ledger/kernel';
import {
  type AppendOptions,
  type AppendResult,
  catchUpSubscription,
  chainHash,
  contentHash,
  type EventFilter,
  type EventStore,
  GENESIS_HASH,
  InvalidAppendError,
  type NewEvent,
  type ReadAllOptions,
  type ReadAllResult,
  type ReadStreamOptions,
  type RecordedEvent,
  satisfiesExpected,
  StoreClosedError,
  type StreamAppend,
  streamCategory,
  type SubscribeOptions,
  type Subscription,
  WrongExpectedVersionError,
} from '@ledger/eventstore';

/**
 * The EventStore port in memory, for processing tests that need no engine:
 * gap-free positions, expected-version checks, filters, the hash chain and
 * commit signals behave as the port says.
 */
export class InMemoryEventStore implements EventStore {
  readonly kind = 'memory';
  readonly multiStreamAppend = true;
  private readonly log: RecordedEvent[] = [];
  private readonly streams = new Map<string, RecordedEvent[]>();
  private appendWaiters = new Set<() => void>();
  private closed = false;

  /** `now` stamps `recordedAt`; tests of time-based replay set it. */
  constructor(private readonly now: () => Date = () => new Date()) {}

  async append(stream: string, events: readonly NewEvent[], options: AppendOptions): Promise<AppendResult> {
    return (await this.appendMany([{ stream, events, expected: options.expected }]))[0];
  }

  /** All or nothing: every stream is checked before any is written, and waiters wake once. */
  async appendMany(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    this.assertOpen();
    if (appends.length === 0) throw new InvalidAppendError('appendMany needs at least one stream');
    const streams = new Set(appends.map((append) => append.stream));
    if (streams.size !== appends.length) throw new InvalidAppendError('a stream is named twice in one appendMany');
    for (const { stream, events, expected } of appends) {
      if (events.length === 0) throw new InvalidAppendError('an append needs at least one event', { stream });
      const actual = this.streams.get(stream)?.length ?? 0;
      if (!satisfiesExpected(expected, actual)) throw new WrongExpectedVersionError(stream, expected, actual);
    }
    const recordedAt = this.now().toISOString();
    const results = appends.map(({ stream, events }) => this.record(stream, events, recordedAt));
    this.signalAppend();
    return results;
  }

  private record(stream: string, events: readonly NewEvent[], recordedAt: string): AppendResult {
    const existing = this.streams.get(stream) ?? [];
    for (const event of events) {
      const content = { id: event.id ?? uuidV7(), type: event.type, recordedAt, data: structuredClone(event.data), metadata: event.metadata };
      const position = this.log.length + 1;
      const version = existing.length + 1;
      const prevHash = this.log.at(-1)?.hash ?? GENESIS_HASH;
      const recorded: RecordedEvent = Object.freeze({
        ...content,
        stream,
        version,
        position,
        prevHash,
        hash: chainHash(prevHash, position, stream, version, contentHash(content)),
      });
      this.log.push(recorded);
      existing.push(recorded);
    }
    this.streams.set(stream, existing);
    return { stream, version: existing.length, position: this.log.length };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const from = (options.fromVersion ?? 1) - 1;
    const events = this.streams.get(stream) ?? [];
    return events.slice(from, options.max === undefined ? undefined : from + options.max);
  }

  async readAll(options: ReadAllOptions = {}): Promise<ReadAllResult> {
    this.assertOpen();
    const after = options.after ?? 0;
    const end = Math.min(this.log.length, after + (options.max ?? 1000));
    const matches = eventMatcher(options.filter);
    const events: RecordedEvent[] = [];
    for (let index = after; index < end; index++) {
      if (matches(this.log[index])) events.push(this.log[index]);
    }
    return { events, position: Math.max(after, end) };
  }

  async headPosition(): Promise<number> {
    this.assertOpen();
    return this.log.length;
  }

  subscribe(options?: SubscribeOptions): Subscription {
    return catchUpSubscription(this, options);
  }

  waitForAppend(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.closed || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.appendWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal?.addEventListener('abort', done);
      this.appendWaiters.add(done);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.signalAppend();
  }

  private signalAppend(): void {
    const waiters = this.appendWaiters;
    this.appendWaiters = new Set();
    for (const wake of waiters) wake();
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreClosedError();
  }
}

function eventMatcher(filter: EventFilter | undefined): (event: RecordedEvent) => boolean {
  const types = filter?.types ? new Set(filter.types) : undefined;
  const categories = filter?.categories ? new Set(filter.categories) : undefined;
  return (event) => (types === undefined || types.has(event.type)) && (categories === undefined || categories.has(streamCategory(event.stream)));
}
