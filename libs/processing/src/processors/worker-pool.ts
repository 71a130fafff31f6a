import type { EventStore } from '@ledger/eventstore';
import { type Clock, systemClock } from '../leases/clock';
import type { SqlDatabase } from '../sql/sql-database.port';
import { PositionWaiters, type ProcessorSelection } from './position-waiters';
import type { ProcessorObserver } from './processor-observer';
import { consoleProcessorLogger, type ProcessorLogger } from './processor-logger';
import type { ProcessorWorker, WorkerSettings } from './processor-worker';
import { SharedLogTail } from './shared-log-tail';

/** The options every runtime of checkpointed workers takes. */
export interface WorkerPoolOptions {
  readonly store: Pick<EventStore, 'readAll' | 'waitForAppend' | 'headPosition'>;
  /** Holds the checkpoints and leases (and the read models or parked events). */
  readonly db: SqlDatabase;
  /**
   * The log's newest events shared with the process's other pools (over the
   * same store), so that an append is read once for all of them; by default
   * the pool's own.
   */
  readonly tail?: SharedLogTail;
  /** This instance's identity in leases; unique per process (e.g. host, pid and a random suffix). */
  readonly owner: string;
  /** Events scanned per batch. */
  readonly batchSize?: number;
  /** How long a lease outlives its holder's last renewal; default 15000 ms. Renewed every third of it. */
  readonly leaseTtlMs?: number;
  /** First retry delay after an unexpected failure (the database), doubling up to `maxRetryMs`; default 100 ms. */
  readonly initialRetryMs?: number;
  /** Default 10000 ms, and never more than a third of the lease TTL. */
  readonly maxRetryMs?: number;
  /** Lease and retry clock; default `Date.now`. */
  readonly clock?: Clock;
  readonly logger?: ProcessorLogger;
  /** Told of every batch and failed attempt (the ledger's metrics); none by default. */
  readonly observer?: ProcessorObserver;
}

/**
 * A set of workers run together: one loop each, started and stopped as one,
 * with `waitForPosition` over the slowest of them. Names must be unique.
 */
export class WorkerPool<W extends ProcessorWorker> {
  readonly workers: readonly W[];
  readonly settings: WorkerSettings;
  private readonly waiters: PositionWaiters;
  /** Set from start() until stop(); aborting it ends every worker's loop. */
  private stopSignal: AbortController | undefined;
  private loops: Promise<void>[] = [];

  constructor(
    options: WorkerPoolOptions,
    defaults: { readonly batchSize: number },
    createWorkers: (settings: WorkerSettings) => W[],
  ) {
    const batchSize = options.batchSize ?? defaults.batchSize;
    const leaseTtlMs = options.leaseTtlMs ?? 15_000;
    if (!(batchSize >= 1) || !(leaseTtlMs >= 3)) throw new RangeError('batchSize must be ≥ 1 and leaseTtlMs ≥ 3');
    this.waiters = new PositionWaiters(
      (among) => Math.min(...this.selected(among).map((worker) => worker.position)),
      (position, among) => this.selected(among).filter((worker) => worker.position < position).map((worker) => `${worker.identity.key}@${worker.position}`),
    );
    this.settings = {
      store: options.store,
      tail: options.tail ?? new SharedLogTail(options.store),
      db: options.db,
      owner: options.owner,
      batchSize,
      leaseTtlMs,
      initialRetryMs: options.initialRetryMs ?? 100,
      maxRetryMs: options.maxRetryMs ?? 10_000,
      clock: options.clock ?? systemClock,
      logger: options.logger ?? consoleProcessorLogger,
      observer: options.observer,
      onProgress: () => this.waiters.notify(),
    };
    this.workers = createWorkers(this.settings);
    const keys = this.workers.map((worker) => worker.identity.key);
    const duplicate = keys.find((key, index) => keys.indexOf(key) !== index);
    if (duplicate !== undefined) throw new RangeError(`two processors are named ${duplicate}`);
  }

  /** Runs `setup` (tables), then starts every worker; resolves without waiting for them to catch up. */
  async start(setup: () => Promise<void>): Promise<void> {
    if (this.stopSignal) return;
    const stopSignal = new AbortController();
    this.stopSignal = stopSignal;
    try {
      await setup();
    } catch (error) {
      this.stopSignal = undefined;
      throw error;
    }
    if (stopSignal.signal.aborted) return; // stop() came first
    this.loops = this.workers.map((worker) => worker.run(stopSignal.signal));
  }

  /** Lets each worker finish its current step, releases the leases; pending waits reject with `reason`. */
  async stop(reason: string): Promise<void> {
    const stopSignal = this.stopSignal;
    if (!stopSignal) return;
    this.stopSignal = undefined;
    stopSignal.abort();
    await Promise.all(this.loops);
    this.loops = [];
    this.waiters.rejectAll(reason);
  }

  /** Resolves once every worker (or every one named in `among`) has processed the log up to `position`. */
  waitForPosition(position: number, timeoutMs: number, among?: ProcessorSelection): Promise<void> {
    const unknown = among?.find((key) => !this.workers.some((worker) => worker.identity.key === key));
    if (unknown !== undefined) return Promise.reject(new RangeError(`no processor is named ${unknown}`));
    return this.waiters.wait(position, timeoutMs, among);
  }

  private selected(among: ProcessorSelection): readonly W[] {
    return among === undefined ? this.workers : this.workers.filter((worker) => among.includes(worker.identity.key));
  }
}
