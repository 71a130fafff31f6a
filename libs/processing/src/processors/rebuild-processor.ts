import type { EventStore } from '@ledger/eventstore';
import type { Checkpoint } from '../checkpoints/checkpoint';
import { readCheckpoint, restartCheckpoint } from '../checkpoints/checkpoint';
import { chainHashAt } from '../checkpoints/chain-hash-at';
import { ensureProcessingTables } from '../checkpoints/processing-tables';
import type { SqlDatabase } from '../sql/sql-database.port';
import { commitBatch } from './commit-batch';
import type { Processor } from './processor';
import { processorFilter } from './processor-filter';

export interface RebuildOptions {
  /** Stop after this position: the read model "as of" it. Default: the head. */
  readonly untilPosition?: number;
  /** Stop before the first event the processor reads that was recorded after this time. */
  readonly untilTime?: Date | string;
  /**
   * Events scanned per transaction; default 50,000. A batch's working set
   * writes each touched row once, so bigger batches rewrite fewer rows and
   * reload fewer from the database: on the bench's 59,200-event inventory
   * log, 50,000 writes 166k rows where 20,000 wrote 195k, and needs about
   * 40 MB more heap (under 160 MB in all; "Rebuild, as-of replay and audit
   * verify" in `git show 055f85e:docs/benchmarks.md`).
   */
  readonly batchSize?: number;
  /**
   * Continue from the read model's own checkpoint instead of emptying it:
   * `db` holds this processor's read model as of an earlier position (a copy
   * of an earlier as-of rebuild). Default false.
   */
  readonly resume?: boolean;
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
  const batchSize = options.batchSize ?? 50_000;
  const untilPosition = options.untilPosition ?? Number.POSITIVE_INFINITY;
  const untilTime = options.untilTime === undefined ? undefined : new Date(options.untilTime).toISOString();
  const filter = processorFilter(processor);
  let from = options.resume ? await resumableCheckpoint(db, processor) : await emptied(db, processor);
  let applied = 0;
  const progress = (): RebuildProgress => ({ position: from.position, applied, elapsedMs: performance.now() - started });
  for (;;) {
    const max = Math.min(batchSize, untilPosition - from.position);
    if (max <= 0) break;
    let { events, position } = await store.readAll({ after: from.position, max, filter });
    // ISO-8601 UTC strings with milliseconds compare in time order.
    const late = untilTime === undefined ? -1 : events.findIndex((event) => event.recordedAt > untilTime);
    if (late !== -1) {
      position = events[late].position - 1;
      events = events.slice(0, late);
    }
    if (position === from.position) break;
    const hash = await chainHashAt(store, position, events);
    await commitBatch(db, processor, { events, from, to: position, hash }, { now: new Date() });
    applied += events.length;
    from = { version: processor.version, position };
    options.onProgress?.(progress());
    if (late !== -1) break;
  }
  return progress();
}

async function emptied(db: SqlDatabase, processor: Processor): Promise<Checkpoint> {
  await ensureProcessingTables(db);
  await db.transaction(async (tx) => {
    await processor.setup(tx);
    await processor.reset(tx);
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
