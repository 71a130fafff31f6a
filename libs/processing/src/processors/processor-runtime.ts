import { ensureProcessingTables } from '../checkpoints/processing-tables';
import type { Processor } from './processor';
import type { ProcessorStatus } from './processor-status';
import { ProjectionWorker } from './projection-worker';
import { WorkerPool, type WorkerPoolOptions } from './worker-pool';

export interface ProcessorRuntimeOptions extends WorkerPoolOptions {
  readonly processors: readonly Processor[];
  /** Events scanned per batch transaction; default 5000 (catching up after a version bump is a rebuild). */
  readonly batchSize?: number;
}

/**
 * Runs every processor of this process: each in its own loop, under its own
 * lease, with its read model and checkpoint committed together. Several
 * processes may run the same processors on one database; one instance runs
 * each processor and the others stand by.
 */
export class ProcessorRuntime {
  private readonly pool: WorkerPool<ProjectionWorker>;

  constructor(private readonly options: ProcessorRuntimeOptions) {
    this.pool = new WorkerPool(options, { batchSize: 5000 }, (settings) => options.processors.map((processor) => new ProjectionWorker(processor, settings)));
  }

  /** Creates the checkpoint and lease tables and starts every processor; resolves without waiting for them to catch up. */
  start(): Promise<void> {
    return this.pool.start(() => ensureProcessingTables(this.options.db));
  }

  /** Lets each processor finish its current batch, releases the leases; pending waits reject. */
  stop(): Promise<void> {
    return this.pool.stop('the processor runtime stopped');
  }

  async status(): Promise<ProcessorStatus[]> {
    const head = await this.options.store.headPosition();
    return this.pool.workers.map((worker) => worker.status(head));
  }

  /**
   * Resolves once every processor (or only those named in `processors`: a
   * read waits for the read models it reads, not for all of them) has
   * processed the log up to `position` (read-your-writes after an append);
   * rejects with PositionNotReachedError after `timeoutMs` (default 10000),
   * and with a RangeError for a name this runtime does not run. A standby
   * processor counts with its active instance's checkpoint, seen within a
   * third of the lease TTL.
   */
  waitForPosition(position: number, options: { readonly timeoutMs?: number; readonly processors?: readonly string[] } = {}): Promise<void> {
    return this.pool.waitForPosition(position, options.timeoutMs ?? 10_000, options.processors);
  }
}
