import type { Pool } from 'pg';
import type { EventStoreObserver } from '../../event-store-observer';
import type { StoreLocation } from '../../store-location';
import type { AppendSignal } from '../shared/append-signal';
import { GroupCommittedEventStore } from '../shared/group-committed-event-store';
import { headPositionPostgres } from './head-position-postgres';
import type { PostgresAppendListener } from './postgres-append-listener';
import { postgresBatchCommitter } from './postgres-batch-committer';
import { readAllPostgres } from './read-all-postgres';
import { readStreamPostgres } from './read-stream-postgres';

/** Keeps one `ledger_append` call (one transaction holding the head lock) short under a burst: `append` and `appendMany` calls per call. */
const MAX_APPENDS_PER_CALL = 500;

export interface PostgresEventStoreStats {
  /** `ledger_append` calls made: one round trip and one transaction each. */
  readonly roundTrips: number;
  readonly appends: number;
}

/**
 * The store for several ledger replicas on one database. Appends are group
 * committed in-process (one `ledger_append` call in flight at a time, the
 * next batch gathering meanwhile); the database serializes replicas, and
 * LISTEN/NOTIFY (the listener raises `appended`) wakes readers on any replica.
 */
export class PostgresEventStore extends GroupCommittedEventStore {
  constructor(
    pool: Pool,
    private readonly listener: PostgresAppendListener,
    appended: AppendSignal,
    observer?: EventStoreObserver,
    private readonly where?: StoreLocation,
  ) {
    super(
      {
        kind: 'postgres',
        commit: postgresBatchCommitter(pool),
        maxAppendsPerCommit: MAX_APPENDS_PER_CALL,
        readStream: (stream, options) => readStreamPostgres(pool, stream, options),
        readAll: (options) => readAllPostgres(pool, options),
        headPosition: () => headPositionPostgres(pool),
        // A lost LISTEN connection is re-established here; until then waits time out and poll.
        beforeWait: () => void listener.ensureListening().catch(() => undefined),
        close: async () => {
          await listener.close();
          await pool.end();
        },
      },
      appended,
      observer,
    );
  }

  /** Every replica's commit is announced by NOTIFY while the listening connection lasts. */
  announcementEpoch(): number | undefined {
    return this.listener.epoch();
  }

  /** The database and schema, for a verify worker's own connection. */
  location(): StoreLocation | undefined {
    return this.where;
  }

  stats(): PostgresEventStoreStats {
    const { batches, requests } = this.commitStats();
    return { roundTrips: batches, appends: requests };
  }
}
