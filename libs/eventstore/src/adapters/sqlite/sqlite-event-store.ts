import type { Database } from 'better-sqlite3';
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
import { sqliteBatchCommitter } from './commit-sqlite-batch';
import { readAllSqlite } from './read-all-sqlite';
import { readStreamSqlite } from './read-stream-sqlite';
import { prepareSqliteStatements, type SqliteStatements } from './sqlite-statements';

export interface SqliteEventStoreStats {
  /** Write transactions committed: each pays one fsync. */
  readonly transactions: number;
  readonly appends: number;
}

/**
 * The embedded store: one SQLite file in WAL mode. Appends are group
 * committed (see GroupCommit); reads run synchronously on the same
 * connection, which better-sqlite3 makes cheap.
 */
export class SqliteEventStore implements EventStore {
  readonly kind = 'sqlite';
  private readonly statements: SqliteStatements;
  private readonly commits: GroupCommit<PreparedAppend, AppendResult>;
  private readonly appended = new AppendSignal();
  private readonly subscriptions = new SubscriptionRegistry();
  private closed = false;

  constructor(private readonly db: Database) {
    this.statements = prepareSqliteStatements(db);
    const commitBatch = sqliteBatchCommitter(db, this.statements);
    this.commits = new GroupCommit((appends) => {
      const outcomes = commitBatch(appends);
      if (outcomes.some((outcome) => 'result' in outcome)) this.appended.notify();
      return outcomes;
    });
  }

  async append(stream: string, events: readonly NewEvent[], options: AppendOptions): Promise<AppendResult> {
    this.assertOpen();
    return this.commits.submit(prepareAppend(stream, events, options.expected));
  }

  async readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    this.assertOpen();
    return readStreamSqlite(this.statements, stream, options);
  }

  async readAll(options?: ReadAllOptions): Promise<ReadAllResult> {
    this.assertOpen();
    return readAllSqlite(this.statements, options);
  }

  async headPosition(): Promise<number> {
    this.assertOpen();
    return this.statements.head.get()?.position ?? 0;
  }

  subscribe(options?: SubscribeOptions): Subscription {
    this.assertOpen();
    return this.subscriptions.subscribe(this, options);
  }

  waitForAppend(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.appended.wait(timeoutMs, signal);
  }

  /** Group commit at work: how many transactions carried how many appends. */
  stats(): SqliteEventStoreStats {
    const { batches, requests } = this.commits.stats();
    return { transactions: batches, appends: requests };
  }

  /** Ends subscriptions, commits what is queued, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.subscriptions.closeAll();
    await this.commits.drain();
    this.appended.notify();
    this.db.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreClosedError();
  }
}
