import type { EventFilter, EventStore, RecordedEvent } from '@ledger/eventstore';
import { CheckpointMovedError } from '../checkpoints/advance-checkpoint';
import { type Checkpoint, readCheckpoint } from '../checkpoints/checkpoint';
import type { Clock } from '../leases/clock';
import { acquireLease, fenceLease, LeaseLostError, type LeaseTerms, releaseLease } from '../leases/lease';
import type { SqlDatabase } from '../sql/sql-database.port';
import { abortableDelay } from './abortable-delay';
import { commitBatch } from './commit-batch';
import { prepareProcessor } from './prepare-processor';
import type { Processor } from './processor';
import { processorFilter } from './processor-filter';
import type { ProcessorLogger } from './processor-logger';
import type { ProcessorState, ProcessorStatus } from './processor-status';

/**
 * How long a processor may run ahead of its stored checkpoint over events
 * its filter drops. Standby instances and API-only replicas read stored
 * checkpoints, so they see such a processor at most this far behind.
 */
const LAZY_CHECKPOINT_MS = 200;

export interface WorkerSettings {
  readonly store: Pick<EventStore, 'readAll' | 'waitForAppend'>;
  readonly db: SqlDatabase;
  readonly owner: string;
  readonly batchSize: number;
  readonly leaseTtlMs: number;
  /** First retry delay after a failure; doubles up to `maxRetryMs`. */
  readonly initialRetryMs: number;
  readonly maxRetryMs: number;
  readonly clock: Clock;
  readonly logger: ProcessorLogger;
  /** Called whenever the worker's position may have moved. */
  readonly onProgress: () => void;
}

/**
 * Runs one processor: holds its lease (or stands by), prepares its tables,
 * then reads batches after the checkpoint and commits each with the
 * checkpoint under the lease fence; waits for appends when caught up.
 */
export class ProcessorWorker {
  private state: ProcessorState = 'idle';
  /** The checkpoint as stored. */
  private checkpoint: Checkpoint | undefined;
  /**
   * How far the log has been scanned: ahead of the stored checkpoint when
   * the filter dropped every event since (such stretches are stored lazily).
   */
  private scanned = 0;
  /** Clock time of the last checkpoint write. */
  private storedAt = 0;
  /** Lease-clock time of the last successful acquire or fence; undefined while not holding the lease. */
  private leaseRenewedAt: number | undefined;
  private prepared = false;
  private failures = 0;
  private lastError: string | undefined;
  private readonly filter: EventFilter;
  /** Renewing at a third of the TTL leaves two chances before the lease expires. */
  private readonly renewEveryMs: number;

  constructor(
    readonly processor: Processor,
    private readonly settings: WorkerSettings,
  ) {
    this.filter = processorFilter(processor);
    this.renewEveryMs = Math.max(1, Math.floor(settings.leaseTtlMs / 3));
  }

  /** Whether this instance has set up the processor's tables (and so may read them). */
  get isPrepared(): boolean {
    return this.prepared;
  }

  get position(): number {
    return Math.max(this.scanned, this.checkpoint?.position ?? 0);
  }

  status(head: number): ProcessorStatus {
    return {
      name: this.processor.name,
      version: this.checkpoint?.version ?? this.processor.version,
      position: this.position,
      state: this.state,
      lag: Math.max(0, head - this.position),
      failures: this.failures,
      ...(this.failures > 0 ? { lastError: this.lastError } : {}),
    };
  }

  /** Loops until `signal` aborts, then gives the lease up. Never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    this.state = 'catching-up';
    while (!signal.aborted) {
      try {
        await this.step(signal);
      } catch (error) {
        if (signal.aborted) break;
        await this.recover(error, signal);
      }
    }
    await this.releaseHeldLease();
    this.state = 'idle';
  }

  private async step(signal: AbortSignal): Promise<void> {
    if (!(await this.holdLease())) return this.standBy(signal);
    if (!this.prepared) await this.prepare();
    const from = this.checkpoint!;
    const after = this.position;
    const { events, position } = await this.settings.store.readAll({ after, max: this.settings.batchSize, filter: this.filter });
    if (position === after) {
      // Caught up: store what was skipped, then look again rather than wait: an append that came
      // during the write would not wake a wait that starts after it.
      if (after > from.position) return this.store(from, after, []);
      this.succeeded('live');
      await this.settings.store.waitForAppend(this.renewEveryMs, signal);
      return;
    }
    if (events.length === 0 && this.settings.clock() - this.storedAt < LAZY_CHECKPOINT_MS) {
      // Nothing for this processor: move on in memory and store the checkpoint later. Every
      // append would otherwise cost every processor a commit (an fsync each), whatever it reads.
      this.scanned = position;
      this.settings.onProgress();
      return;
    }
    await this.store(from, position, events);
    this.succeeded(this.state === 'live' ? 'live' : 'catching-up');
    this.settings.onProgress();
  }

  /** Applies `events` (possibly none) and stores the checkpoint at `to`, under the lease fence. */
  private async store(from: Checkpoint, to: number, events: readonly RecordedEvent[]): Promise<void> {
    const now = this.settings.clock();
    await commitBatch(this.settings.db, this.processor, { events, from, to }, { fence: this.leaseTerms(now), now: new Date(now) });
    this.leaseRenewedAt = now;
    this.storedAt = now;
    this.checkpoint = { version: from.version, position: to };
    this.scanned = to;
  }

  /** Acquires or renews the lease when due; false when another instance holds it. */
  private async holdLease(): Promise<boolean> {
    const now = this.settings.clock();
    if (this.leaseRenewedAt !== undefined && now - this.leaseRenewedAt < this.renewEveryMs) return true;
    const held = await acquireLease(this.settings.db, this.leaseTerms(now));
    if (held && this.leaseRenewedAt === undefined) {
      this.settings.logger.log(`${this.processor.name}: lease taken by ${this.settings.owner}`);
      this.prepared = false; // another instance may have moved the checkpoint or the version meanwhile
    }
    if (!held && this.leaseRenewedAt !== undefined) this.loseLease(`${this.processor.name}: lease taken over by another instance`);
    this.leaseRenewedAt = held ? now : undefined;
    return held;
  }

  private async prepare(): Promise<void> {
    const now = this.settings.clock();
    const prepared = await this.settings.db.transaction(async (tx) => {
      await fenceLease(tx, this.leaseTerms(now));
      return prepareProcessor(tx, this.processor, new Date(now));
    });
    if (prepared.rebuilt) {
      this.settings.logger.log(`${this.processor.name}: building version ${this.processor.version} from position 0`);
    }
    this.leaseRenewedAt = now;
    this.checkpoint = prepared.checkpoint;
    this.scanned = prepared.checkpoint.position;
    this.prepared = true;
    this.state = 'catching-up';
    this.settings.onProgress();
  }

  /** Follows the active instance's checkpoint so that status and waitForPosition stay meaningful. */
  private async standBy(signal: AbortSignal): Promise<void> {
    this.state = 'standby';
    this.checkpoint = (await readCheckpoint(this.settings.db, this.processor.name)) ?? this.checkpoint;
    this.scanned = this.checkpoint?.position ?? 0;
    this.settings.onProgress();
    await abortableDelay(this.renewEveryMs, signal);
  }

  private async recover(error: unknown, signal: AbortSignal): Promise<void> {
    if (error instanceof LeaseLostError) return this.loseLease(`${error.message}; batch rolled back`);
    if (error instanceof CheckpointMovedError) {
      this.settings.logger.warn(`${error.message}; reloading`);
      this.prepared = false;
      return;
    }
    this.failures++;
    this.lastError = error instanceof Error ? error.message : String(error);
    this.state = 'failed';
    this.settings.logger.error(`${this.processor.name}: attempt ${this.failures} failed: ${this.lastError}`, (error as Error)?.stack);
    // Capped by the renewal interval so that a failing holder keeps its lease
    // alive between attempts instead of handing the same failure to another instance.
    const backoff = Math.min(this.settings.initialRetryMs * 2 ** (this.failures - 1), this.settings.maxRetryMs, this.renewEveryMs);
    await abortableDelay(backoff, signal);
  }

  private loseLease(message: string): void {
    this.settings.logger.warn(message);
    this.leaseRenewedAt = undefined;
    this.prepared = false;
    this.state = 'standby';
  }

  private succeeded(state: ProcessorState): void {
    this.state = state;
    this.failures = 0;
    this.lastError = undefined;
  }

  private async releaseHeldLease(): Promise<void> {
    if (this.leaseRenewedAt === undefined) return;
    this.leaseRenewedAt = undefined;
    try {
      await releaseLease(this.settings.db, this.processor.name, this.settings.owner);
    } catch (error) {
      this.settings.logger.warn(`${this.processor.name}: could not release the lease (it will expire): ${(error as Error).message}`);
    }
  }

  private leaseTerms(now: number): LeaseTerms {
    return { name: this.processor.name, owner: this.settings.owner, now, ttlMs: this.settings.leaseTtlMs };
  }
}
