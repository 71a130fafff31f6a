import type { NewEvent, RecordedEvent } from '../../envelope';
import { StoreClosedError } from '../../errors/store-closed.error';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  ReadAllOptions,
  ReadAllResult,
  ReadStreamOptions,
  StreamAppend,
  SubscribeOptions,
  Subscription,
} from '../../event-store.port';
import type { EventStoreObserver } from '../../event-store-observer';
import { AppendSignal } from './append-signal';
import { type BatchCommitter, GroupCommit, type GroupCommitStats } from '@ledger/kernel';
import { observedAppend } from './observed-append';
import { prepareAppend } from './prepare-append';
import { prepareAppendMany } from './prepare-append-many';
import type { AtomicAppend } from './prepared-append';
import { SubscriptionRegistry } from './subscription-registry';

/** What a database adapter supplies; the store around it is the same for every engine. */
export interface StoreEngine {
  readonly kind: string;
  /**
   * Commits a batch in one transaction (one fsync or round trip). Each
   * element succeeds or fails as a whole (one result per stream, in order),
   * without failing the others.
   */
  readonly commit: BatchCommitter<AtomicAppend, AppendResult[]>;
  /** Upper bound on `append` and `appendMany` calls per commit (default: GroupCommit's). */
  readonly maxAppendsPerCommit?: number;
  readStream(stream: string, options?: ReadStreamOptions): RecordedEvent[] | Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): ReadAllResult | Promise<ReadAllResult>;
  headPosition(): number | Promise<number>;
  /** Called before each wait for an append (e.g. to re-establish LISTEN). */
  beforeWait?(): void;
  /** Releases the engine's connections, after every queued append is committed. */
  close(): void | Promise<void>;
}

/**
 * An event store over a SQL engine with group commit: appends are prepared
 * (validated, hashed) at once, then committed together with the others of
 * the same turn of the event loop; readers wait on the append signal, which
 * the engine may also raise for writers in other processes. An `appendMany`
 * joins the group commit like any append, as one all-or-nothing element.
 */
export class GroupCommittedEventStore implements EventStore {
  readonly kind: string;
  readonly multiStreamAppend = true;
  private readonly commits: GroupCommit<AtomicAppend, AppendResult[]>;
  private readonly subscriptions = new SubscriptionRegistry();
  private closed = false;

  constructor(
    private readonly engine: StoreEngine,
    private readonly appended: AppendSignal = new AppendSignal(),
    private readonly observer?: EventStoreObserver,
  ) {
    this.kind = engine.kind;
    this.commits = new GroupCommit(
      async (appends) => {
        const outcomes = await engine.commit(appends);
        // Local waiters need not wait for a notification to come back from the database.
        if (outcomes.some((outcome) => 'result' in outcome)) this.appended.notify();
        return outcomes;
      },
      engine.maxAppendsPerCommit,
      observer && ((appends, seconds) => observer.commitFinished(appends, seconds)),
    );
  }

  async append(stream: string, events: readonly NewEvent[], options: AppendOptions): Promise<AppendResult> {
    this.assertOpen();
    const append = async () => (await this.commits.submit([prepareAppend(stream, events, options.expected)]))[0];
    return this.observer ? observedAppend(this.observer, append) : append();
  }

  async appendMany(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    this.assertOpen();
    const append = () => this.commits.submit(prepareAppendMany(appends));
    return this.observer ? observedAppend(this.observer, append) : append();
  }

  async readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.engine.readStream(stream, options);
  }

  async readAll(options?: ReadAllOptions): Promise<ReadAllResult> {
    this.assertOpen();
    return this.engine.readAll(options);
  }

  async headPosition(): Promise<number> {
    this.assertOpen();
    return this.engine.headPosition();
  }

  subscribe(options?: SubscribeOptions): Subscription {
    this.assertOpen();
    return this.subscriptions.subscribe(this, options);
  }

  waitForAppend(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.engine.beforeWait?.();
    return this.appended.wait(timeoutMs, signal);
  }

  /** Group commit at work: how many commits carried how many appends. */
  protected commitStats(): GroupCommitStats {
    return this.commits.stats();
  }

  /** Ends subscriptions, commits what is queued, then closes the engine. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.subscriptions.closeAll();
    await this.commits.drain();
    this.appended.notify();
    await this.engine.close();
  }

  protected isClosed(): boolean {
    return this.closed;
  }

  protected assertOpen(): void {
    if (this.closed) throw new StoreClosedError();
  }
}
