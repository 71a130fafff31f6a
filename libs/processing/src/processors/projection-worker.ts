import type { RecordedEvent } from '@ledger/eventstore';
import { type Checkpoint, restartCheckpoint } from '../checkpoints/checkpoint';
import type { SqlExecutor } from '../sql/sql-database.port';
import { commitBatch } from './commit-batch';
import { type PreparedProcessor, prepareProcessor } from './prepare-processor';
import type { Processor } from './processor';
import { processorFilter } from './processor-filter';
import { ProcessorWorker, type WorkerSettings } from './processor-worker';

/** Runs one projection: each batch is applied in the transaction that moves its checkpoint. */
export class ProjectionWorker extends ProcessorWorker {
  constructor(
    readonly processor: Processor,
    settings: WorkerSettings,
  ) {
    super({ key: processor.name, version: processor.version, filter: processorFilter(processor) }, settings);
  }

  protected prepareIn(tx: SqlExecutor, now: Date): Promise<PreparedProcessor> {
    return prepareProcessor(tx, this.processor, now);
  }

  /** A projection is rebuildable: empty it and replay the restored log from the start. */
  protected async restartAheadOfLog(tx: SqlExecutor, now: Date): Promise<Checkpoint> {
    await this.processor.reset(tx);
    await restartCheckpoint(tx, this.processor.name, this.processor.version, now);
    return { version: this.processor.version, position: 0 };
  }

  protected async process(from: Checkpoint, to: number, events: readonly RecordedEvent[]): Promise<boolean> {
    const hash = await this.chainHashAt(to, events);
    const now = this.settings.clock();
    await commitBatch(this.settings.db, this.processor, { events, from, to, hash }, { fence: this.leaseTerms(now), now: new Date(now) });
    this.committed(from, to, now);
    return true;
  }
}
