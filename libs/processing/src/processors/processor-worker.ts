import type { EventFilter, EventStore, RecordedEvent } from '@ledger/eventstore';
import { CheckpointMovedError } from '../checkpoints/advance-checkpoint';
import { chainHashAt } from '../checkpoints/chain-hash-at';
import { type Checkpoint, readCheckpoint, readCheckpointHash } from '../checkpoints/checkpoint';
import { commitWithCheckpoint } from '../checkpoints/commit-with-checkpoint';
import type { Clock } from '../leases/clock';
import { acquireLease, fenceLease, LeaseLostError, type LeaseTerms, releaseLease } from '../leases/lease';
import type { SqlDatabase, SqlExecutor } from '../sql/sql-database.port';
import { abortableDelay } from './abortable-delay';
import type { PreparedProcessor } from './prepare-processor';
import type { ProcessorLogger } from './processor-logger';
import type { ProcessorObserver } from './processor-observer';
import type { ProcessorState, ProcessorStatus } from './processor-status';
import { ReadAhead } from './read-ahead';
import type { SharedLogTail } from './shared-log-tail';

/**
 * How long a processor may run ahead of its stored checkpoint over events
 * its filter drops. Standby instances and API-only replicas read stored
 * checkpoints, so they see such a processor at most this far behind.
 */
const LAZY_CHECKPOINT_MS = 200;

export interface WorkerSettings {
  readonly store: Pick<EventStore, 'readAll' | 'waitForAppend' | 'headPosition'>;
  /** The log's newest events, read once per append for every worker of the process. */
  readonly tail: SharedLogTail;
  readonly db: SqlDatabase;
  readonly owner: string;
  readonly batchSize: number;
  readonly leaseTtlMs: number;
  /** First retry delay after a failure; doubles up to `maxRetryMs`. */
  readonly initialRetryMs: number;
  readonly maxRetryMs: number;
  readonly clock: Clock;
  readonly logger: ProcessorLogger;
  readonly observer?: ProcessorObserver;
  /** Called whenever the worker's position may have moved. */
  readonly onProgress: () => void;
}

/** What a worker runs: the key of its checkpoint and lease, the version it builds, what it reads. */
export interface WorkerIdentity {
  readonly key: string;
  readonly version: number;
  readonly filter: EventFilter;
}

/**
 * The loop every checkpointed processor shares — projections and reactors:
 * holds the lease (or stands by), prepares the checkpoint, reads batches
 * after it, hands each to `process`, and waits for appends when caught up.
 * Subclasses decide what processing a batch means and when the checkpoint
 * moves; every checkpoint write goes through `commit` under the lease fence.
 */
export abstract class ProcessorWorker {
  protected state: ProcessorState = 'idle';
  /** The checkpoint as stored. */
  protected checkpoint: Checkpoint | undefined;
  /**
   * How far the log has been scanned: ahead of the stored checkpoint when
   * the filter dropped every event since (such stretches are stored lazily).
   */
  private scanned = 0;
  /** Clock time of the last checkpoint write. */
  private storedAt = 0;
  /** Lease-clock time of the last successful acquire or fence; undefined while not holding the lease. */
  private leaseRenewedAt: number | undefined;
  /** Whether another instance held the lease when this one asked: taking it later is then a failover. */
  private leaseRefused = false;
  private prepared = false;
  protected failures = 0;
  protected lastError: string | undefined;
  /** What was done when the checkpoint disagreed with the log (ahead of it, or another event at its position), for status and /readyz. */
  private restored: string | undefined;
  /** The batch being processed: where checkpoint writes find the chain hash of their position. */
  private batch: readonly RecordedEvent[] = [];
  private readonly reads: ReadAhead;
  /** Renewing at a third of the TTL leaves two chances before the lease expires. */
  protected readonly renewEveryMs: number;
  /** Aborted by `wake()` to end a wait early (an operator asked for something). */
  private wakeUp = new AbortController();
  /** The signal of the running loop (aborts at stop); aborted before start. */
  protected runSignal: AbortSignal = AbortSignal.abort();
  /**
   * Stop-or-wake, made once per wake rather than at every wait: every loop
   * waits after every append, and AbortSignal.any cost more than the wait.
   */
  private stopOrWake: { readonly stop: AbortSignal; readonly wake: AbortSignal; readonly either: AbortSignal } | undefined;

  protected constructor(
    readonly identity: WorkerIdentity,
    protected readonly settings: WorkerSettings,
  ) {
    this.renewEveryMs = Math.max(1, Math.floor(settings.leaseTtlMs / 3));
    this.reads = new ReadAhead(settings.tail, settings.batchSize, identity.filter);
  }

  /** Creates what the worker needs and reads (or starts) its checkpoint, in the caller's transaction. */
  protected abstract prepareIn(tx: SqlExecutor, now: Date): Promise<PreparedProcessor>;

  /**
   * The stored checkpoint is past the log's head, or the log's event at its
   * position is not the one it was stored with (its chain hash differs): the
   * event store is older than this checkpoint (restored from a backup), and
   * in the second case has grown since, reusing positions for other events.
   * Continuing would skip events this worker believes it has applied.
   * Returns the checkpoint to start from instead, written in `tx`.
   */
  protected abstract restartAheadOfLog(tx: SqlExecutor, now: Date, head: number): Promise<Checkpoint>;

  /**
   * Processes a batch read after `from` and scanned up to `to`, moving the
   * checkpoint through `commit`. Resolves true when the checkpoint reached
   * `to`, false when it stopped short and wants the batch again later.
   */
  protected abstract process(from: Checkpoint, to: number, events: readonly RecordedEvent[], signal: AbortSignal): Promise<boolean>;

  /** Runs before each read while holding the lease; false skips this turn (it waited for something). */
  protected beforeRead(_signal: AbortSignal): Promise<boolean> {
    return Promise.resolve(true);
  }

  get holdsLease(): boolean {
    return this.leaseRenewedAt !== undefined;
  }

  get position(): number {
    return Math.max(this.scanned, this.checkpoint?.position ?? 0);
  }

  status(head: number): ProcessorStatus {
    return {
      name: this.identity.key,
      version: this.checkpoint?.version ?? this.identity.version,
      position: this.position,
      state: this.state,
      lag: Math.max(0, head - this.position),
      failures: this.failures,
      ...(this.failures > 0 ? { lastError: this.lastError } : {}),
      ...(this.restored ? { restored: this.restored } : {}),
    };
  }

  /** Ends the current wait (for appends, a retry, standby) so the loop looks again now. */
  wake(): void {
    const woken = this.wakeUp;
    this.wakeUp = new AbortController();
    woken.abort();
  }

  /** Loops until `signal` aborts, then gives the lease up. Never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    this.runSignal = signal;
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

  /** Waits `ms`, or less if the loop is stopped or woken. */
  protected pause(ms: number, signal: AbortSignal): Promise<void> {
    return abortableDelay(ms, this.stoppedOrWoken(signal));
  }

  /** Aborts when the loop stops or `wake()` is called. */
  private stoppedOrWoken(stop: AbortSignal): AbortSignal {
    const wake = this.wakeUp.signal;
    if (this.stopOrWake?.stop !== stop || this.stopOrWake.wake !== wake) this.stopOrWake = { stop, wake, either: AbortSignal.any([stop, wake]) };
    return this.stopOrWake.either;
  }

  /** Runs `work` (optional) and moves the checkpoint from `from` to `to` in one transaction under the lease fence. */
  protected async commit(from: Checkpoint, to: number, work?: (tx: SqlExecutor) => Promise<void>): Promise<void> {
    const hash = await this.chainHashAt(to);
    const now = this.settings.clock();
    const move = { from, to: { position: to, hash } };
    await commitWithCheckpoint(this.settings.db, this.identity.key, move, { fence: this.leaseTerms(now), now: new Date(now) }, work);
    this.committed(from, to, now);
  }

  /** Records a checkpoint write made at clock time `now` (by `commit` or a subclass's own transaction). */
  protected committed(from: Checkpoint, to: number, now: number): void {
    this.leaseRenewedAt = now;
    this.storedAt = now;
    this.checkpoint = { version: from.version, position: to };
    this.scanned = to;
  }

  /** The chain hash of the log's event at `position`, to store with a checkpoint there. */
  protected chainHashAt(position: number, known: readonly RecordedEvent[] = this.batch): Promise<string | undefined> {
    return chainHashAt(this.settings.tail.lookups, position, known);
  }

  protected leaseTerms(now: number): LeaseTerms {
    return { name: this.identity.key, owner: this.settings.owner, now, ttlMs: this.settings.leaseTtlMs };
  }

  private async step(signal: AbortSignal): Promise<void> {
    if (!(await this.holdLease())) return this.standBy(signal);
    if (!this.prepared) await this.prepare();
    if (!(await this.beforeRead(signal))) return;
    const from = this.checkpoint!;
    const after = this.position;
    const { events, position } = await this.reads.read(after);
    if (position === after) {
      // Caught up. What was skipped is stored once it is LAZY_CHECKPOINT_MS old (then the loop looks
      // again rather than wait: an append during the write would not wake a wait that starts after it).
      const sinceStored = this.settings.clock() - this.storedAt;
      if (after > from.position && sinceStored >= LAZY_CHECKPOINT_MS) return this.commit(from, after);
      this.succeeded('live');
      // An append that came since the read would not wake the wait either: read it now.
      if ((await this.settings.store.headPosition()) > after) return;
      const waitMs = after > from.position ? Math.min(this.renewEveryMs, LAZY_CHECKPOINT_MS - sinceStored) : this.renewEveryMs;
      await this.settings.store.waitForAppend(waitMs, this.stoppedOrWoken(signal));
      return;
    }
    if (events.length === 0 && this.settings.clock() - this.storedAt < LAZY_CHECKPOINT_MS) {
      // Nothing for this processor: move on in memory and store the checkpoint later. Every
      // append would otherwise cost every processor a commit (an fsync each), whatever it reads.
      this.scanned = position;
      this.settings.onProgress();
      return;
    }
    this.batch = events;
    const done = await this.process(from, position, events, signal).finally(() => {
      this.batch = [];
    });
    if (done) {
      this.settings.observer?.batchProcessed(this.identity.key, events.length);
      this.succeeded(this.state === 'live' ? 'live' : 'catching-up');
    }
    this.settings.onProgress();
  }

  /** Acquires or renews the lease when due; false when another instance holds it. */
  private async holdLease(): Promise<boolean> {
    const now = this.settings.clock();
    if (this.leaseRenewedAt !== undefined && now - this.leaseRenewedAt < this.renewEveryMs) return true;
    const held = await acquireLease(this.settings.db, this.leaseTerms(now));
    if (held && this.leaseRenewedAt === undefined) {
      // Taken at once on start is the usual case; taken after another instance held it is a failover, worth an operator's eye.
      const level = this.leaseRefused ? 'log' : 'debug';
      this.settings.logger[level](`${this.identity.key}: lease taken by ${this.settings.owner}`);
      this.prepared = false; // another instance may have moved the checkpoint or the version meanwhile
    }
    if (!held) this.leaseRefused = true;
    if (!held && this.leaseRenewedAt !== undefined) this.loseLease(`${this.identity.key}: lease taken over by another instance`);
    this.leaseRenewedAt = held ? now : undefined;
    return held;
  }

  private async prepare(): Promise<void> {
    this.reads.forget();
    const now = this.settings.clock();
    let prepared = await this.settings.db.transaction(async (tx) => {
      await fenceLease(tx, this.leaseTerms(now));
      return this.prepareIn(tx, new Date(now));
    });
    // The head is read after the checkpoint: a checkpoint is only ever stored once its
    // events are visible, so in this order a sound checkpoint is never seen past the head.
    const head = await this.settings.store.headPosition();
    const disagreement = await this.disagreementWithLog(prepared.checkpoint, head);
    if (disagreement) prepared = await this.restartAhead(head, now, disagreement);
    if (prepared.rebuilt) {
      // A fresh read model over an empty log builds nothing: not news.
      const level = head > prepared.checkpoint.position ? 'log' : 'debug';
      this.settings.logger[level](`${this.identity.key}: building version ${this.identity.version} from position ${prepared.checkpoint.position}`);
    }
    this.leaseRenewedAt = now;
    this.checkpoint = prepared.checkpoint;
    this.scanned = prepared.checkpoint.position;
    this.prepared = true;
    this.state = 'catching-up';
    this.settings.onProgress();
  }

  /** Why the checkpoint cannot be trusted against this log, or undefined when it can. */
  private async disagreementWithLog(checkpoint: Checkpoint, head: number): Promise<string | undefined> {
    if (checkpoint.position > head) return `checkpoint ${checkpoint.position} was past the log head ${head} (an older event store restored?)`;
    const stored = await readCheckpointHash(this.settings.db, this.identity.key);
    // No hash: position 0, or a checkpoint written before hashes were stored.
    if (stored === undefined) return undefined;
    const actual = await this.chainHashAt(checkpoint.position, []);
    if (actual === stored) return undefined;
    return (
      `checkpoint ${checkpoint.position} was stored with chain hash ${stored.slice(0, 12)}… but the log's event there has ${actual?.slice(0, 12)}… ` +
      `(an older event store restored and appended to since?)`
    );
  }

  private async restartAhead(head: number, now: number, disagreement: string): Promise<PreparedProcessor> {
    const checkpoint = await this.settings.db.transaction(async (tx) => {
      await fenceLease(tx, this.leaseTerms(now));
      return this.restartAheadOfLog(tx, new Date(now), head);
    });
    this.restored = `${disagreement}; restarted at ${checkpoint.position}`;
    this.settings.logger.error(`${this.identity.key}: ${this.restored}`);
    return { checkpoint, rebuilt: true };
  }

  /** Follows the active instance's checkpoint so that status and waitForPosition stay meaningful. */
  private async standBy(signal: AbortSignal): Promise<void> {
    this.state = 'standby';
    this.checkpoint = (await readCheckpoint(this.settings.db, this.identity.key)) ?? this.checkpoint;
    this.scanned = this.checkpoint?.position ?? 0;
    this.settings.onProgress();
    await this.pause(this.renewEveryMs, signal);
  }

  private async recover(error: unknown, signal: AbortSignal): Promise<void> {
    if (error instanceof LeaseLostError) return this.loseLease(`${error.message}; batch rolled back`);
    if (error instanceof CheckpointMovedError) {
      this.settings.logger.warn(`${error.message}; reloading`);
      this.prepared = false;
      return;
    }
    this.failures++;
    this.settings.observer?.attemptFailed(this.identity.key);
    this.lastError = error instanceof Error ? error.message : String(error);
    this.state = 'failed';
    this.settings.logger.error(`${this.identity.key}: attempt ${this.failures} failed: ${this.lastError}`, (error as Error)?.stack);
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
      await releaseLease(this.settings.db, this.identity.key, this.settings.owner);
    } catch (error) {
      this.settings.logger.warn(`${this.identity.key}: could not release the lease (it will expire): ${(error as Error).message}`);
    }
  }
}
