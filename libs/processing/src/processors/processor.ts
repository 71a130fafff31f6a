import type { EventFilter, RecordedEvent } from '@ledger/eventstore';
import type { SqlExecutor } from '../sql/sql-database.port';

/**
 * A checkpointed consumer of the global log: projections, sagas, relays.
 * The runtime calls `apply` once per batch it reads, inside the transaction
 * that also stores the processor's checkpoint, so the read model and the
 * checkpoint always move together. Where a batch ends depends on the batch
 * size, the filter and the timing of appends, so the result must not: the
 * events applied in one batch or one per batch give the same read model.
 * `apply` must also be idempotent against redelivery: a batch applied again
 * changes nothing (tests apply every batch twice and every event alone).
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
  /**
   * Secondary indexes that only the read model's queries use, never the
   * processor's own `apply` or `fold`: a rebuild from position 0 drops them
   * while the log loads and creates them at the end (`rebuildProcessor`).
   * `setup` creates them again too (`IF NOT EXISTS`), should a rebuild stop
   * half-way. An index the processor's own reads use must stay off the list:
   * without it a later read of the same rebuild scans the table.
   */
  readonly queryOnlyIndexes?: readonly string[];
  /** Creates the processor's tables if absent. Runs in a transaction, before anything else. */
  setup(tx: SqlExecutor): Promise<void>;
  /** Empties the processor's tables before a rebuild. */
  reset(tx: SqlExecutor): Promise<void>;
  /**
   * Applies one batch: one or more events in position order. Taking the
   * batch at once lets a processor read and write each table with a few
   * set-based statements instead of several per event, which on a networked
   * database means as many round trips.
   */
  apply(events: readonly RecordedEvent[], tx: SqlExecutor): Promise<void>;
  /**
   * Optional, for long replays (`rebuildProcessor`): several reads of the
   * log applied in one transaction, each row the reads change written once
   * at the end instead of once per read. The read model is the one `apply`
   * gives on the same events.
   */
  fold?(tx: SqlExecutor, start?: FoldStart): ProcessorFold;
}

/** What a fold may assume of the read model it starts on. */
export interface FoldStart {
  /** Its tables hold no rows (a rebuild's first fold, after the reset): nothing needs reading back. */
  readonly empty: boolean;
}

/** A fold over several reads in one transaction: `add` each read's events in position order, then `flush` once. */
export interface ProcessorFold {
  add(events: readonly RecordedEvent[]): Promise<void>;
  flush(): Promise<void>;
}

/** A projection is a processor whose output is a read model served to users. */
export type Projection = Processor;
