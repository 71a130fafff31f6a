import type { EventStore, EventStoreObserver } from '@ledger/eventstore';
import type { SqlDatabase } from '@ledger/processing';
import type { PlainTable } from './plain-table';

/**
 * One engine under test. Everything it opens is fresh and empty (a new file
 * in a temporary directory, or a new PostgreSQL schema) and is closed and
 * removed by `close()`; closing an opened object earlier is allowed.
 */
export interface BenchTarget {
  /** The `store` field of this target's records. */
  readonly name: string;
  /** `observer`: told of every append and group commit, as the ledger's metrics are (metrics_append_64_overhead_pct). */
  openEventStore(label: string, observer?: EventStoreObserver): Promise<EventStore>;
  /** A read-model database of the same engine, for projections. */
  openReadModel(label: string): Promise<SqlDatabase>;
  /** A plain table on the raw driver, for the ceilings. */
  openPlainTable(label: string): Promise<PlainTable>;
  close(): Promise<void>;
}
