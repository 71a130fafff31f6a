import { ensureProcessingTables } from '../checkpoints/processing-tables';
import { WorkerPool, type WorkerPoolOptions } from '../processors/worker-pool';
import type { BackoffPolicy } from './backoff';
import { countParkedEvents, ensureParkedEventsTable, getParkedEvent, listParkedEvents, type ParkedEvent, requestParkedRetry } from './parked-events';
import type { Reactor } from './reactor';
import { ParkedEventNotFoundError, ReactorNotFoundError } from './reactor.errors';
import type { ParkedRetryOutcome, ReactorStatus } from './reactor-status';
import { ReactorWorker } from './reactor-worker';

export interface ReactorRuntimeOptions extends WorkerPoolOptions {
  readonly reactors: readonly Reactor[];
  /** Events read per batch; default 100 (each acknowledged event stores the checkpoint). */
  readonly batchSize?: number;
  /** Attempts at a rejected event before it is parked; default 5. */
  readonly maxAttempts?: number;
  /** While the outside is down; default 500 ms doubling to 60 s, with jitter. Never gives up. */
  readonly unavailableBackoff?: BackoffPolicy;
  /** Between attempts at a rejected event; default 200 ms doubling to 10 s, with jitter. */
  readonly rejectedBackoff?: BackoffPolicy;
  /**
   * A call to the outside outstanding longer than this shows its reactor
   * `stalled` (default 5000 ms): a hung outside fails a call only when the
   * call's own timeout ends it, which may be long after.
   */
  readonly stalledAfterMs?: number;
  /** The jitter's source; default `Math.random`. */
  readonly random?: () => number;
}

/**
 * Runs the reactors of this process, each in its own loop under its own
 * lease, on the same loop as the projections (`ProcessorWorker`). Nothing
 * waits on a reactor: the command side and the API's read-your-writes wait
 * only for projections. Parked events live in `reactor_parked_events`, beside
 * the checkpoints, so no projection rebuild touches a reactor's pending work.
 */
export class ReactorRuntime {
  private readonly pool: WorkerPool<ReactorWorker>;

  constructor(private readonly options: ReactorRuntimeOptions) {
    const policy = {
      maxAttempts: options.maxAttempts ?? 5,
      unavailableBackoff: options.unavailableBackoff ?? { initialMs: 500, maxMs: 60_000 },
      rejectedBackoff: options.rejectedBackoff ?? { initialMs: 200, maxMs: 10_000 },
      stalledAfterMs: options.stalledAfterMs ?? 5000,
      random: options.random ?? Math.random,
    };
    if (!(policy.maxAttempts >= 1)) throw new RangeError('maxAttempts must be ≥ 1');
    if (!(policy.stalledAfterMs >= 1)) throw new RangeError('stalledAfterMs must be ≥ 1');
    this.pool = new WorkerPool(options, { batchSize: 100 }, (settings) =>
      options.reactors.map((reactor) => new ReactorWorker(reactor, settings, options.store, policy)),
    );
  }

  get names(): string[] {
    return this.pool.workers.map((worker) => worker.reactor.name);
  }

  /** Creates the checkpoint, lease and parked-event tables and starts every reactor. */
  start(): Promise<void> {
    return this.pool.start(async () => {
      await ensureProcessingTables(this.options.db);
      await ensureParkedEventsTable(this.options.db);
    });
  }

  /** Aborts the calls in flight (they are retried by whoever runs the reactor next) and releases the leases. */
  stop(): Promise<void> {
    return this.pool.stop('the reactor runtime stopped');
  }

  async status(): Promise<ReactorStatus[]> {
    const [head, parked] = await Promise.all([this.options.store.headPosition(), countParkedEvents(this.options.db)]);
    return this.pool.workers.map((worker) => worker.reactorStatus(head, parked.get(worker.reactor.name) ?? 0));
  }

  /** Resolves once every reactor has been acknowledged (or parked) up to `position`; for tests and tools. */
  waitForPosition(position: number, options: { readonly timeoutMs?: number } = {}): Promise<void> {
    return this.pool.waitForPosition(position, options.timeoutMs ?? 10_000);
  }

  async parked(name: string): Promise<ParkedEvent[]> {
    this.worker(name);
    return listParkedEvents(this.options.db, name);
  }

  /**
   * An operator's retry of a parked event: one more attempt, now when this
   * instance runs the reactor, else by the instance that does. Delivered, it
   * is no longer parked; failed, it stays parked with the new error.
   */
  async retryParked(name: string, position: number): Promise<ParkedRetryOutcome> {
    const worker = this.worker(name);
    if (!(await getParkedEvent(this.options.db, name, position))) throw new ParkedEventNotFoundError(name, position);
    if (worker.holdsLease) return worker.retryParked(position);
    await requestParkedRetry(this.options.db, name, position, new Date(this.pool.settings.clock()).toISOString());
    worker.lookForRetries();
    return { outcome: 'requested' };
  }

  private worker(name: string): ReactorWorker {
    const worker = this.pool.workers.find((candidate) => candidate.reactor.name === name);
    if (!worker) throw new ReactorNotFoundError(name);
    return worker;
  }
}
