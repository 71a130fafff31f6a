import type { Pool } from 'pg';
import type { NewEvent, RecordedEvent } from '../../envelope';
import { StoreClosedError } from '../../errors/store-closed.error';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  ReadAllOptions,
  ReadAllResult,
  ReadStreamOptions,
  SubscribeOptions,
  Subscription,
} from '../../event-store.port';
import { AppendSignal } from '../shared/append-signal';
import { GroupCommit } from '../shared/group-commit';
import { prepareAppend } from '../shared/prepare-append';
import type { PreparedAppend } from '../shared/prepared-append';
import { SubscriptionRegistry } from '../shared/subscription-registry';
import { headPositionPostgres } from './head-position-postgres';
import { postgresBatchCommitter } from './postgres-batch-committer';
import type { PostgresAppendListener } from './postgres-append-listener';
import { readAllPostgres } from './read-all-postgres';
import { readStreamPostgres } from './read-stream-postgres';

/** Keeps one `ledger_append` call (one transaction holding the head lock) short under a burst. */
const MAX_APPENDS_PER_CALL = 500;

export interface PostgresEventStoreStats {
  /** `ledger_append` calls made: one round trip and one transaction each. */
  readonly roundTrips: number;
  readonly appends: number;
}

/**
 * The store for several ledger replicas on one database. Appends are group
 * committed in-process (one `ledger_append` call in flight at a time, the
 * next batch gathering meanwhile); the database serializes replicas.
 */
export class PostgresEventStore implements EventStore {
  readonly kind = 'postgres';
  private readonly commits: GroupCommit<PreparedAppend, AppendResult>;
  private readonly subscriptions = new SubscriptionRegistry();
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly listener: PostgresAppendListener,
    private readonly appended: AppendSignal,
  ) {
    const commitBatch = postgresBatchCommitter(pool);
    this.commits = new GroupCommit(async (appends) => {
      const outcomes = await commitBatch(appends);
      // Local waiters need not wait for the NOTIFY to come back.
      if (outcomes.some((outcome) => 'result' in outcome)) this.appended.notify();
      return outcomes;
    }, MAX_APPENDS_PER_CALL);
  }

  async append(stream: string, events: readonly NewEvent[], options: AppendOptions): Promise<AppendResult> {
    this.assertOpen();
    return this.commits.submit(prepareAppend(stream, events, options.expected));
  }

  async readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    this.assertOpen();
    return readStreamPostgres(this.pool, stream, options);
  }

  async readAll(options?: ReadAllOptions): Promise<ReadAllResult> {
    this.assertOpen();
    return readAllPostgres(this.pool, options);
  }

  async headPosition(): Promise<number> {
    this.assertOpen();
    return headPositionPostgres(this.pool);
  }

  subscribe(options?: SubscribeOptions): Subscription {
    this.assertOpen();
    return this.subscriptions.subscribe(this, options);
  }

  waitForAppend(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.closed) return Promise.resolve();
    // A lost LISTEN connection is re-established here; until then the timeout polls.
    this.listener.ensureListening().catch(() => undefined);
    return this.appended.wait(timeoutMs, signal);
  }

  stats(): PostgresEventStoreStats {
    const { batches, requests } = this.commits.stats();
    return { roundTrips: batches, appends: requests };
  }

  /** Ends subscriptions, commits what is queued, then releases every connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.subscriptions.closeAll();
    await this.commits.drain();
    this.appended.notify();
    await this.listener.close();
    await this.pool.end();
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreClosedError();
  }
}
