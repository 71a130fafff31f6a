import type { EventStore } from '@ledger/eventstore';
import { ensureProcessingTables } from '../checkpoints/processing-tables';
import { type Clock, systemClock } from '../leases/clock';
import type { SqlDatabase } from '../sql/sql-database.port';
import { PositionWaiters } from './position-waiters';
import type { Processor } from './processor';
import { consoleProcessorLogger, type ProcessorLogger } from './processor-logger';
import type { ProcessorStatus } from './processor-status';
import { ProcessorWorker } from './processor-worker';

export interface ProcessorRuntimeOptions {
  readonly store: Pick<EventStore, 'readAll' | 'waitForAppend' | 'headPosition'>;
  /** Holds the read models, checkpoints and leases. */
  readonly db: SqlDatabase;
  readonly processors: readonly Processor[];
  /** This instance's identity in leases; unique per process (e.g. host, pid and a random suffix). */
  readonly owner: string;
  /** Events scanned per batch transaction; default 5000 (catching up after a version bump is a rebuild). */
  readonly batchSize?: number;
  /** How long a lease outlives its holder's last renewal; default 15000 ms. Renewed every third of it. */
  readonly leaseTtlMs?: number;
  /** First retry delay after a failure, doubling up to `maxRetryMs`; default 100 ms. */
  readonly initialRetryMs?: number;
  /** Default 10000 ms, and never more than a third of the lease TTL. */
  readonly maxRetryMs?: number;
  /** Lease clock; default `Date.now`. */
  readonly clock?: Clock;
  readonly logger?: ProcessorLogger;
}

/**
 * Runs every processor of this process: each in its own loop, under its own
 * lease, with its read model and checkpoint committed together. Several
 * processes may run the same processors on one database; one instance runs
 * each processor and the others stand by.
 */
export class ProcessorRuntime {
  private readonly workers: ProcessorWorker[];
  private readonly waiters: PositionWaiters;
  /** Set from start() until stop(); aborting it ends every worker's loop. */
  private stopSignal: AbortController | undefined;
  private loops: Promise<void>[] = [];
  private readonly progressListeners = new Set<() => void>();

  constructor(private readonly options: ProcessorRuntimeOptions) {
    const names = options.processors.map((processor) => processor.name);
    const duplicate = names.find((name, index) => names.indexOf(name) !== index);
    if (duplicate !== undefined) throw new RangeError(`two processors are named ${duplicate}`);
    const batchSize = options.batchSize ?? 5000;
    const leaseTtlMs = options.leaseTtlMs ?? 15_000;
    if (!(batchSize >= 1) || !(leaseTtlMs >= 3)) throw new RangeError('batchSize must be ≥ 1 and leaseTtlMs ≥ 3');
    this.waiters = new PositionWaiters(
      () => Math.min(...this.workers.map((worker) => worker.position)),
      (position) => this.workers.filter((worker) => worker.position < position).map((worker) => `${worker.processor.name}@${worker.position}`),
    );
    const settings = {
      store: options.store,
      db: options.db,
      owner: options.owner,
      batchSize,
      leaseTtlMs,
      initialRetryMs: options.initialRetryMs ?? 100,
      maxRetryMs: options.maxRetryMs ?? 10_000,
      clock: options.clock ?? systemClock,
      logger: options.logger ?? consoleProcessorLogger,
      onProgress: () => {
        this.waiters.notify();
        for (const listener of this.progressListeners) listener();
      },
    };
    this.workers = options.processors.map((processor) => new ProcessorWorker(processor, settings));
  }

  /** Creates the checkpoint and lease tables and starts every processor; resolves without waiting for them to catch up. */
  async start(): Promise<void> {
    if (this.stopSignal) return;
    const stopSignal = new AbortController();
    this.stopSignal = stopSignal;
    try {
      await ensureProcessingTables(this.options.db);
    } catch (error) {
      this.stopSignal = undefined;
      throw error;
    }
    if (stopSignal.signal.aborted) return; // stop() came first
    this.loops = this.workers.map((worker) => worker.run(stopSignal.signal));
  }

  /** Lets each processor finish its current batch, releases the leases; pending waits reject. */
  async stop(): Promise<void> {
    const stopSignal = this.stopSignal;
    if (!stopSignal) return;
    this.stopSignal = undefined;
    stopSignal.abort();
    await Promise.all(this.loops);
    this.loops = [];
    this.waiters.rejectAll('the processor runtime stopped');
  }

  async status(): Promise<ProcessorStatus[]> {
    const head = await this.options.store.headPosition();
    return this.workers.map((worker) => worker.status(head));
  }

  /**
   * Resolves once every processor has processed the log up to `position`
   * (read-your-writes after an append); rejects with PositionNotReachedError
   * after `timeoutMs` (default 10000). A standby processor counts with its
   * active instance's checkpoint, seen within a third of the lease TTL.
   */
  waitForPosition(position: number, options: { readonly timeoutMs?: number } = {}): Promise<void> {
    return this.waiters.wait(position, options.timeoutMs ?? 10_000);
  }

  /** Whether the named processor runs here and has set up its tables (outbox drainers wait for it). */
  isPrepared(name: string): boolean {
    return this.workers.some((worker) => worker.processor.name === name && worker.isPrepared);
  }

  /**
   * Calls `listener` whenever a processor may have committed a batch (for
   * outbox drainers that act on what a batch wrote). Returns the unsubscribe.
   */
  onProgress(listener: () => void): () => void {
    this.progressListeners.add(listener);
    return () => this.progressListeners.delete(listener);
  }
}
