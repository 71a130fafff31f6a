import type { Database, Statement } from 'better-sqlite3';
import type { StoredEvent } from '../../hash-chain/stored-event';
import type { StoreLocation } from '../../store-location';
import type { EventStoreObserver } from '../../event-store-observer';
import { AppendSignal } from '../shared/append-signal';
import { GroupCommittedEventStore } from '../shared/group-committed-event-store';
import { sqliteBatchCommitter } from './commit-sqlite-batch';
import { readAllSqlite } from './read-all-sqlite';
import { readStreamSqlite } from './read-stream-sqlite';
import { storedFromSqliteRow } from './sqlite-row';
import { prepareSqliteStatements, type SqliteStatements } from './sqlite-statements';

export interface SqliteEventStoreStats {
  /** Write transactions committed: each pays one fsync. */
  readonly transactions: number;
  readonly appends: number;
}

/**
 * The embedded store: one SQLite file in WAL mode. Appends are group
 * committed; reads run synchronously on the same connection, which
 * better-sqlite3 makes cheap.
 */
export class SqliteEventStore extends GroupCommittedEventStore {
  private readonly statements: SqliteStatements;
  private readonly file: string;
  private readonly dataVersion: Statement<[], number>;

  constructor(db: Database, observer?: EventStoreObserver) {
    const statements = prepareSqliteStatements(db);
    super(
      {
        kind: 'sqlite',
        commit: sqliteBatchCommitter(db, statements),
        readStream: (stream, options) => readStreamSqlite(statements, stream, options),
        readAll: (options) => readAllSqlite(statements, options),
        headPosition: () => statements.head.get()?.position ?? 0,
        close: () => {
          db.close();
        },
      },
      new AppendSignal(),
      observer,
    );
    this.statements = statements;
    this.file = db.name;
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /**
   * This process's commits wake its waiters at once; another process's
   * commit to the same file is announced to nobody, but moves the
   * connection's data_version (SQLite's own counter of other connections'
   * commits), so it starts a new epoch.
   */
  announcementEpoch(): number | undefined {
    if (this.isClosed()) return undefined;
    return this.dataVersion.get() as number;
  }

  /** The database file; none for an in-memory database, which no other connection can see. */
  location(): StoreLocation | undefined {
    return this.file === ':memory:' || this.file === '' ? undefined : { kind: 'sqlite', file: this.file };
  }

  async readAllStored(after: number, max: number): Promise<StoredEvent[]> {
    this.assertOpen();
    return this.statements.readAfter(max).all(after).map(storedFromSqliteRow);
  }

  stats(): SqliteEventStoreStats {
    const { batches, requests } = this.commitStats();
    return { transactions: batches, appends: requests };
  }
}
