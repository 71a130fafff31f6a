import { getHeapStatistics } from 'node:v8';
import type { EventStore, RecordedEvent } from '@ledger/eventstore';
import { advanceCheckpoint } from '../checkpoints/advance-checkpoint';
import type { Checkpoint } from '../checkpoints/checkpoint';
import { readCheckpoint, restartCheckpoint } from '../checkpoints/checkpoint';
import { chainHashAt } from '../checkpoints/chain-hash-at';
import { ensureProcessingTables } from '../checkpoints/processing-tables';
import { createSecondaryIndexes, dropSecondaryIndexes } from '../sql/secondary-indexes';
import type { SqlDatabase } from '../sql/sql-database.port';
import { ApplyFailedError, commitBatch } from './commit-batch';
import type { Processor } from './processor';
import { processorFilter } from './processor-filter';

/**
 * Events folded per transaction by default. Each fold after the first loads
 * the rows its events touch back from the tables and writes them again, so
 * fewer, longer folds are cheaper: the inventory over 1,000,007 events took
 * 96 CPU-s in one fold and 167 in folds of 200,000 (docs/benchmarks.md,
 * "The auditor's log"). The heap bounds a fold too (FOLD_HEAP_SHARE).
 */
const DEFAULT_FOLD_EVENTS = 2_000_000;
/** Events read at a time by default (`RebuildOptions.batchSize`). */
const DEFAULT_READ_EVENTS = 50_000;
const FOLD_READ_EVENTS = 2_000;
/**
 * A fold is flushed once the heap in use passes this share of V8's heap
 * limit, whatever its event count: the working set lives in memory until
 * the flush (one fold of the 1,000,007-event inventory log peaked at 3.9 GB
 * resident, its in-memory database included), and a process started with
 * Node's default limit must not run out of it.
 */
const FOLD_HEAP_SHARE = 0.5;

export interface RebuildOptions {
  /** Stop after this position: the read model "as of" it. Default: the head. */
  readonly untilPosition?: number;
  /** Stop before the first event the processor reads that was recorded after this time. */
  readonly untilTime?: Date | string;
  /**
   * Events read at a time. Default 50,000, each read its own transaction;
   * where the processor folds, 2,000: its reads only feed the fold, and a
   * small read's decoded events are applied and dropped before the
   * collector promotes them (on the bench's inventory log, reads of 2,000
   * rebuilt about 15% faster than reads of 50,000).
   */
  readonly batchSize?: number;
  /**
   * Continue from the read model's own checkpoint instead of emptying it:
   * `db` holds this processor's read model as of an earlier position (a copy
   * of an earlier as-of rebuild). Default false.
   */
  readonly resume?: boolean;
  /**
   * Events applied per transaction at most where the processor folds
   * (`Processor.fold`): reads of `batchSize` are folded until this many are
   * applied, each changed row written once, or until the heap in use
   * passes half of V8's limit. Default 2,000,000.
   */
  readonly foldEvents?: number;
  /** Called after each committed batch. */
  readonly onProgress?: (progress: RebuildProgress) => void;
}

export interface RebuildProgress {
  /** Position the read model now reflects (its checkpoint). */
  readonly position: number;
  /** Events applied so far. */
  readonly applied: number;
  readonly elapsedMs: number;
}

/**
 * Empties a processor's read model and replays the log into it from
 * position 0, batch by batch, each batch committed with the checkpoint: for
 * offline replay ("inventory as of a position or time"), rebuild tools and
 * benchmarks. It takes no lease: run it on a database no runtime is
 * processing this processor on (a copy, or `:memory:`).
 */
export async function rebuildProcessor(
  store: Pick<EventStore, 'readAll'>,
  db: SqlDatabase,
  processor: Processor,
  options: RebuildOptions = {},
): Promise<RebuildProgress> {
  const started = performance.now();
  const read = boundedReader(store, processor, options, options.batchSize ?? (processor.fold ? FOLD_READ_EVENTS : DEFAULT_READ_EVENTS));
  const foldEvents = options.foldEvents ?? DEFAULT_FOLD_EVENTS;
  const deferredIndexes: string[] = [];
  let from = options.resume ? await resumableCheckpoint(db, processor) : await emptied(db, processor, deferredIndexes);
  // Only the first fold after the reset starts on empty tables.
  let empty = !options.resume;
  let applied = 0;
  const progress = (): RebuildProgress => ({ position: from.position, applied, elapsedMs: performance.now() - started });
  for (;;) {
    const first = await read(from.position);
    if (first === undefined) break;
    const step = processor.fold ? await foldReads(store, db, processor, { from, empty }, first, read, foldEvents) : await commitRead(store, db, processor, from, first);
    empty = false;
    applied += step.applied;
    from = { version: processor.version, position: step.position };
    options.onProgress?.(progress());
    if (step.last) break;
  }
  if (deferredIndexes.length > 0) await db.transaction((tx) => createSecondaryIndexes(tx, deferredIndexes));
  return progress();
}

/** Events read after a position, up to the rebuild's bounds; `last` when the bound was met inside the read. */
interface Read {
  readonly events: readonly RecordedEvent[];
  readonly position: number;
  readonly last: boolean;
}

interface Step {
  readonly position: number;
  readonly applied: number;
  readonly last: boolean;
}

/** Reads of at most `batchSize` positions that stop at `untilPosition` and before the first event recorded after `untilTime`; undefined once nothing is left. */
function boundedReader(store: Pick<EventStore, 'readAll'>, processor: Processor, options: RebuildOptions, batchSize: number): (after: number) => Promise<Read | undefined> {
  const untilPosition = options.untilPosition ?? Number.POSITIVE_INFINITY;
  const untilTime = options.untilTime === undefined ? undefined : new Date(options.untilTime).toISOString();
  const filter = processorFilter(processor);
  return async (after) => {
    const max = Math.min(batchSize, untilPosition - after);
    if (max <= 0) return undefined;
    let { events, position } = await store.readAll({ after, max, filter });
    // ISO-8601 UTC strings with milliseconds compare in time order.
    const late = untilTime === undefined ? -1 : events.findIndex((event) => event.recordedAt > untilTime);
    if (late !== -1) {
      position = events[late].position - 1;
      events = events.slice(0, late);
    }
    if (position === after) return undefined;
    return { events, position, last: late !== -1 };
  };
}

/** One read applied and committed with its checkpoint. */
async function commitRead(store: Pick<EventStore, 'readAll'>, db: SqlDatabase, processor: Processor, from: Checkpoint, read: Read): Promise<Step> {
  const hash = await chainHashAt(store, read.position, read.events);
  await commitBatch(db, processor, { events: read.events, from, to: read.position, hash }, { now: new Date() });
  return { position: read.position, applied: read.events.length, last: read.last };
}

/** Reads folded in one transaction until `foldEvents` are applied or the bound is met, then flushed and committed with the checkpoint. */
async function foldReads(
  store: Pick<EventStore, 'readAll'>,
  db: SqlDatabase,
  processor: Processor,
  { from, empty }: { from: Checkpoint; empty: boolean },
  first: Read,
  read: (after: number) => Promise<Read | undefined>,
  foldEvents: number,
): Promise<Step> {
  return db.transaction(async (tx) => {
    const fold = processor.fold!(tx, { empty });
    let current = first;
    let applied = 0;
    let last = false;
    for (;;) {
      if (current.events.length > 0) {
        try {
          await fold.add(current.events);
        } catch (error) {
          throw new ApplyFailedError(processor.name, current.events, error);
        }
      }
      applied += current.events.length;
      if (current.last || applied >= foldEvents || heapNearlyFull()) {
        last = current.last;
        break;
      }
      const next = await read(current.position);
      if (next === undefined) {
        last = true;
        break;
      }
      current = next;
    }
    await fold.flush();
    const hash = await chainHashAt(store, current.position, current.events);
    await advanceCheckpoint(tx, processor.name, from, { position: current.position, hash }, new Date());
    return { position: current.position, applied, last };
  });
}

/** The read model emptied and its checkpoint at 0; the statements that create the query-only indexes it dropped go into `deferredIndexes`. */
async function emptied(db: SqlDatabase, processor: Processor, deferredIndexes: string[]): Promise<Checkpoint> {
  await ensureProcessingTables(db);
  await db.transaction(async (tx) => {
    await processor.setup(tx);
    await processor.reset(tx);
    deferredIndexes.push(...(await dropSecondaryIndexes(tx, db.dialect, processor.queryOnlyIndexes ?? [])));
    await restartCheckpoint(tx, processor.name, processor.version, new Date());
  });
  return { version: processor.version, position: 0 };
}

async function resumableCheckpoint(db: SqlDatabase, processor: Processor): Promise<Checkpoint> {
  const stored = await readCheckpoint(db, processor.name);
  if (stored?.version !== processor.version) {
    throw new Error(`cannot resume ${processor.name} version ${processor.version}: the database holds ${stored ? `version ${stored.version}` : 'no checkpoint'}`);
  }
  return stored;
}

function heapNearlyFull(): boolean {
  const { used_heap_size: used, heap_size_limit: limit } = getHeapStatistics();
  return used > FOLD_HEAP_SHARE * limit;
}
