import type { EventFilter, RecordedEvent } from '@ledger/eventstore';
import type { SqlExecutor } from '../sql/sql-database.port';

/**
 * A checkpointed consumer of the global log: projections, sagas, relays.
 * The runtime calls `handle` with events in position order, inside the
 * transaction that also stores the processor's checkpoint, so the read model
 * and the checkpoint always move together. Handlers must be idempotent
 * against a redelivered event (tests feed every event twice).
 */
export interface Processor {
  /** Stable name: the key of the checkpoint and the lease. */
  readonly name: string;
  /** Bump to rebuild from position 0 (reset, then replay everything). */
  readonly version: number;
  /** Event types the processor reads; others are skipped by the store's filter. Empty: every type (relays). */
  readonly handles: readonly string[];
  /** Narrows the read further (e.g. by stream category). */
  readonly filter?: Pick<EventFilter, 'categories'>;
  /** Creates the processor's tables if absent. Runs in a transaction, before anything else. */
  setup(tx: SqlExecutor): Promise<void>;
  /** Empties the processor's tables before a rebuild. */
  reset(tx: SqlExecutor): Promise<void>;
  /** Applies one event. */
  apply(event: RecordedEvent, tx: SqlExecutor): Promise<void>;
}

/** A projection is a processor whose output is a read model served to users. */
export type Projection = Processor;
