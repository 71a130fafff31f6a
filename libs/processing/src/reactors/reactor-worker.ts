import { type EventStore, eventLogContext, type RecordedEvent } from '@ledger/eventstore';
import { withLogContext } from '@ledger/kernel';
import { type Checkpoint, readCheckpoint, restartCheckpoint } from '../checkpoints/checkpoint';
import { fenceLease } from '../leases/lease';
import type { PreparedProcessor } from '../processors/prepare-processor';
import { processorFilter } from '../processors/processor-filter';
import type { ProcessorState } from '../processors/processor-status';
import { ProcessorWorker, type WorkerSettings } from '../processors/processor-worker';
import type { SqlExecutor } from '../sql/sql-database.port';
import { type BackoffPolicy, backoffDelay } from './backoff';
import { getParkedEvent, parkedRetriesRequested, parkEvent, recordParkedRetryFailure, unparkEvent } from './parked-events';
import { type Reactor, reactorKey } from './reactor';
import { ReactorUnavailableError } from './reactor.errors';
import type { ParkedRetryOutcome, ReactorState, ReactorStatus, StalledCall } from './reactor-status';

export interface ReactorPolicy {
  /** Attempts at a rejected event before it is parked. */
  readonly maxAttempts: number;
  readonly unavailableBackoff: BackoffPolicy;
  readonly rejectedBackoff: BackoffPolicy;
  /** A call to the outside outstanding longer than this shows the reactor `stalled`. */
  readonly stalledAfterMs: number;
  /** The jitter's source; injected so tests can pin it. */
  readonly random: () => number;
}

/** The event (or batch, keyed by its first event) that failed last, and when to try it again. */
interface Failing {
  readonly position: number;
  readonly eventId: string;
  readonly kind: 'unavailable' | 'rejected';
  readonly attempts: number;
  readonly firstFailedAt: number;
  readonly error: string;
  readonly retryAt: number;
}

/** The call to the outside in progress: what it carries and when it began (clock time). */
interface Outstanding {
  readonly position: number;
  readonly eventId: string;
  readonly events: number;
  readonly startedAt: number;
}

/** Reactors are not rebuilt: their checkpoint has one version. */
const REACTOR_VERSION = 1;

/**
 * Runs one reactor on the shared processor loop: reacts to each event in
 * position order and stores the checkpoint after each acknowledgement, so a
 * crash re-sends only the unacknowledged tail. A failing event is retried
 * with backoff (the lease is renewed while waiting); a rejected one is
 * parked after `maxAttempts`, in the transaction that moves the checkpoint past it.
 */
export class ReactorWorker extends ProcessorWorker {
  private failing: Failing | undefined;
  private outstanding: Outstanding | undefined;
  private unavailableSince: number | undefined;
  private retriesCheckedAt = Number.NEGATIVE_INFINITY;

  constructor(
    readonly reactor: Reactor,
    settings: WorkerSettings,
    private readonly store: Pick<EventStore, 'readAll' | 'headPosition'>,
    private readonly policy: ReactorPolicy,
  ) {
    super({ key: reactorKey(reactor.name), version: REACTOR_VERSION, filter: processorFilter(reactor) }, reactor.batchSize ? { ...settings, batchSize: reactor.batchSize } : settings);
  }

  reactorStatus(head: number, parked: number): ReactorStatus {
    const base = this.status(head);
    const failing = this.failing;
    const stalled = this.stalledCall();
    return {
      name: this.reactor.name,
      position: base.position,
      state: reactorState(base.state, failing?.kind, stalled !== undefined),
      lag: base.lag,
      parked,
      failures: failing?.attempts ?? base.failures,
      ...(failing ? { lastError: failing.error } : base.lastError ? { lastError: base.lastError } : {}),
      ...(base.restored ? { restored: base.restored } : {}),
      ...(this.unavailableSince !== undefined ? { unavailableSince: new Date(this.unavailableSince).toISOString() } : {}),
      ...(stalled ? { stalled } : {}),
      ...(failing
        ? { retrying: { position: failing.position, eventId: failing.eventId, attempts: failing.attempts, nextAttemptAt: new Date(failing.retryAt).toISOString() } }
        : {}),
    };
  }

  /** An operator's retry of a parked event, run here because this instance holds the lease. */
  async retryParked(position: number): Promise<ParkedRetryOutcome> {
    const parked = await getParkedEvent(this.settings.db, this.reactor.name, position);
    if (!parked) return { outcome: 'delivered' }; // retried meanwhile by the loop
    const { events } = await this.store.readAll({ after: position - 1, max: 1 });
    const event = events.find((candidate) => candidate.id === parked.eventId);
    const now = (): number => this.settings.clock();
    try {
      if (!event) throw new Error(`the log has no event ${parked.eventId} at position ${position}`);
      await this.reactor.react(event, { attempt: parked.attempts + 1, signal: this.runSignal });
    } catch (error) {
      const message = errorMessage(error);
      await recordParkedRetryFailure(this.settings.db, this.reactor.name, position, message, new Date(now()).toISOString());
      this.settings.logger.warn(`${this.reactor.name}: retry of parked event at position ${position} failed: ${message}`);
      return { outcome: 'failed', error: message };
    }
    await this.settings.db.transaction(async (tx) => {
      await fenceLease(tx, this.leaseTerms(now()));
      await unparkEvent(tx, this.reactor.name, position);
    });
    this.settings.logger.log(`${this.reactor.name}: parked event at position ${position} delivered on retry`);
    return { outcome: 'delivered' };
  }

  protected async prepareIn(tx: SqlExecutor, now: Date): Promise<PreparedProcessor> {
    const stored = await readCheckpoint(tx, this.identity.key);
    if (stored) return { checkpoint: stored, rebuilt: false };
    const position = this.reactor.startAt === 'head' ? await this.store.headPosition() : 0;
    await restartCheckpoint(tx, this.identity.key, REACTOR_VERSION, now, position);
    return { checkpoint: { version: REACTOR_VERSION, position }, rebuilt: true };
  }

  /**
   * A reactor cannot be rebuilt: what it did outside stays done. The restored
   * log is a prefix of the one it acted on, so it resumes at the restored
   * head and acts on every event appended from now on, none skipped.
   */
  protected async restartAheadOfLog(tx: SqlExecutor, now: Date, head: number): Promise<Checkpoint> {
    await restartCheckpoint(tx, this.identity.key, REACTOR_VERSION, now, head);
    return { version: REACTOR_VERSION, position: head };
  }

  protected override async beforeRead(signal: AbortSignal): Promise<boolean> {
    await this.runRequestedRetries();
    const wait = this.failing ? this.failing.retryAt - this.settings.clock() : 0;
    if (wait <= 0) return true;
    // In slices of the renewal interval: the loop renews the lease between them.
    await this.pause(Math.min(wait, this.renewEveryMs), signal);
    return false;
  }

  protected async process(from: Checkpoint, to: number, events: readonly RecordedEvent[], signal: AbortSignal): Promise<boolean> {
    let checkpoint = from;
    let pending = events;
    if (this.reactor.reactBatch && events.length > 1) {
      const settled = await this.attempt(events, (context) => this.reactor.reactBatch!(events, context));
      if (settled === 'acknowledged') pending = [];
      else if (settled === 'retry-later') return false;
      // Rejected: one event at a time, to find the poison one.
    }
    for (const event of pending) {
      if (signal.aborted) return false;
      const settled = await this.attempt([event], (context) => this.reactor.react(event, context));
      if (settled === 'retry-later') return false;
      const parking = settled === 'park' ? this.parkWork(event) : undefined;
      await this.commit(checkpoint, event.position, parking);
      checkpoint = { version: checkpoint.version, position: event.position };
    }
    if (checkpoint.position < to) await this.commit(checkpoint, to);
    return true;
  }

  /** One attempt at `events` (one event, or a batch keyed by its first), and what it leaves to do; what it logs carries the first event's ids. */
  private attempt(events: readonly RecordedEvent[], call: (context: { attempt: number; signal: AbortSignal }) => Promise<void>) {
    return withLogContext(eventLogContext(events[0]), () => this.attemptInContext(events, call));
  }

  private async attemptInContext(events: readonly RecordedEvent[], call: (context: { attempt: number; signal: AbortSignal }) => Promise<void>) {
    const [event] = events;
    const attempt = this.failing?.position === event.position ? this.failing.attempts + 1 : 1;
    this.outstanding = { position: event.position, eventId: event.id, events: events.length, startedAt: this.settings.clock() };
    try {
      await call({ attempt, signal: this.runSignal });
    } catch (error) {
      return this.failed(event, attempt, error);
    } finally {
      this.outstanding = undefined;
    }
    if (this.failing || this.unavailableSince !== undefined) this.settings.logger.log(`${this.reactor.name}: the outside acknowledged again`);
    this.failing = undefined;
    this.unavailableSince = undefined;
    return 'acknowledged' as const;
  }

  private failed(event: RecordedEvent, attempts: number, error: unknown): 'retry-later' | 'park' {
    const now = this.settings.clock();
    this.settings.observer?.attemptFailed(this.identity.key);
    const kind = error instanceof ReactorUnavailableError ? 'unavailable' : 'rejected';
    const message = errorMessage(error);
    if (kind === 'rejected' && attempts >= this.policy.maxAttempts) {
      this.failing = { position: event.position, eventId: event.id, kind, attempts, firstFailedAt: this.failing?.firstFailedAt ?? now, error: message, retryAt: now };
      return 'park';
    }
    if (kind === 'unavailable') this.unavailableSince ??= now;
    const delay = backoffDelay(attempts, kind === 'unavailable' ? this.policy.unavailableBackoff : this.policy.rejectedBackoff, this.policy.random);
    const firstFailedAt = this.failing?.position === event.position ? this.failing.firstFailedAt : now;
    this.failing = { position: event.position, eventId: event.id, kind, attempts, firstFailedAt, error: message, retryAt: now + delay };
    const log = kind === 'unavailable' ? this.settings.logger.warn : this.settings.logger.error;
    log.call(this.settings.logger, `${this.reactor.name}: ${event.type} at position ${event.position}, attempt ${attempts} (${kind}): ${message}; next in ${delay} ms`);
    return 'retry-later';
  }

  private parkWork(event: RecordedEvent): (tx: SqlExecutor) => Promise<void> {
    const failing = this.failing!;
    this.failing = undefined;
    const at = (ms: number): string => new Date(ms).toISOString();
    withLogContext(eventLogContext(event), () =>
      this.settings.logger.error(`${this.reactor.name}: parked ${event.type} at position ${event.position} after ${failing.attempts} attempts: ${failing.error}`),
    );
    return (tx) =>
      parkEvent(tx, {
        reactor: this.reactor.name,
        position: event.position,
        eventId: event.id,
        type: event.type,
        stream: event.stream,
        error: failing.error,
        attempts: failing.attempts,
        firstFailedAt: at(failing.firstFailedAt),
        lastFailedAt: at(failing.retryAt),
      });
  }

  /** The call in progress, once it has been outstanding for `stalledAfterMs`. */
  private stalledCall(): StalledCall | undefined {
    const call = this.outstanding;
    if (!call || this.settings.clock() - call.startedAt < this.policy.stalledAfterMs) return undefined;
    return { position: call.position, eventId: call.eventId, events: call.events, since: new Date(call.startedAt).toISOString() };
  }

  /** Operators' retries asked of whichever instance runs the reactor; looked for once per renewal interval. */
  private async runRequestedRetries(): Promise<void> {
    const now = this.settings.clock();
    if (now - this.retriesCheckedAt < this.renewEveryMs) return;
    this.retriesCheckedAt = now;
    for (const position of await parkedRetriesRequested(this.settings.db, this.reactor.name)) await this.retryParked(position);
  }

  /** Makes the next turn look for requested retries (an operator just asked). */
  lookForRetries(): void {
    this.retriesCheckedAt = Number.NEGATIVE_INFINITY;
    this.wake();
  }
}

/**
 * A failure already known says more than a hang (an outside that is down
 * hangs on every retry), and a reactor that does not run has no calls.
 */
function reactorState(base: ProcessorState, failing: Failing['kind'] | undefined, stalled: boolean): ReactorState {
  if (base === 'standby' || base === 'idle') return base;
  if (failing) return failing === 'unavailable' ? 'unavailable' : 'retrying';
  return stalled ? 'stalled' : base;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
