import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { EventBus, ofType } from '@nestjs/cqrs';
import type { Subscription } from 'rxjs';
import { type JobOffer, JobRequestedNotice, type WaitingPoll, type WaitingPolls } from '@ledger/jobs';
import { JobQueries } from '@ledger/projections/jobs';

/** How often the jobs projection is scanned for jobs requested on other replicas. */
const SCAN_MS = 500;
const SCAN_BATCH = 1000;

/** What woke a long poll: jobs handed to it, and the newest position of a job requested for its host with the ids of those requested in this process. */
export interface Arrival {
  /** Jobs recorded dispatched to this poll with their request (WaitingPolls): offered as they are. */
  readonly handed: readonly JobOffer[];
  /** 0 when only handed jobs came. */
  readonly position: number;
  /** Jobs requested in this process since the last wait (a replica's, found by the scan, are not named). */
  readonly jobIds: readonly string[];
}

/**
 * Wakes one long poll: collects arrivals from its creation on, so none is
 * lost between a poll's query and its wait. While it waits, a job request
 * may set it aside (`reserve`): until the job is handed to it or it is
 * released, nothing ends its wait, not even its timeout or its agent
 * hanging up, so a job recorded dispatched to it is never answered
 * without.
 */
export class ArrivalTicket implements WaitingPoll {
  private arrived: number | undefined;
  private jobIds: string[] = [];
  private handed: JobOffer[] = [];
  private waiting: (() => void) | undefined;
  private reserved = false;
  /** The wait was to end (timeout, abort, shutdown) while set aside: it ends once freed. */
  private endsWhenFreed = false;
  private hasEnded = false;

  constructor(
    /** The boot the poll's agent names: a job handed to it is recorded dispatched to that boot. */
    readonly agentBoot: string | null,
    private readonly onClose: (ticket: ArrivalTicket) => void,
  ) {}

  /** Resolves with what came for the poll since the last wait, or undefined after `ms` or on abort. */
  wait(ms: number, signal: AbortSignal): Promise<Arrival | undefined> {
    if (this.arrived !== undefined || this.handed.length > 0 || signal.aborted || this.hasEnded) return Promise.resolve(this.take());
    return new Promise((resolve) => {
      const done = () => {
        if (this.reserved) {
          this.endsWhenFreed = true;
          return;
        }
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.waiting = undefined;
        resolve(this.take());
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
      this.waiting = done;
    });
  }

  arrive(position: number, jobId?: string): void {
    this.arrived = Math.max(this.arrived ?? 0, position);
    if (jobId !== undefined) this.jobIds.push(jobId);
    if (!this.reserved) this.waiting?.();
  }

  /** In `wait` now. */
  get isWaiting(): boolean {
    return this.waiting !== undefined;
  }

  /** Sets the waiting poll aside for one job request; false when it is not waiting, or set aside already. */
  reserve(): boolean {
    if (this.waiting === undefined || this.reserved || this.hasEnded) return false;
    this.reserved = true;
    return true;
  }

  /** The job was recorded dispatched to this poll: its wait ends with it. */
  hand(offer: JobOffer): void {
    this.handed.push(offer);
    this.free();
  }

  /** Nothing was handed: the poll waits on, or ends its wait if it was to end meanwhile. */
  release(): void {
    this.free();
  }

  close(): void {
    this.onClose(this);
  }

  /** Set when the ledger shuts down: the poll answers what it has instead of waiting on. */
  get ended(): boolean {
    return this.hasEnded;
  }

  end(): void {
    this.hasEnded = true;
    if (this.reserved) this.endsWhenFreed = true;
    else this.waiting?.();
  }

  private free(): void {
    this.reserved = false;
    const wake = this.endsWhenFreed || this.handed.length > 0 || this.arrived !== undefined;
    this.endsWhenFreed = false;
    if (wake) this.waiting?.();
  }

  private take(): Arrival | undefined {
    const { arrived, jobIds, handed } = this;
    this.arrived = undefined;
    this.jobIds = [];
    this.handed = [];
    if (arrived === undefined && handed.length === 0) return undefined;
    const handedIds = new Set(handed.map((offer) => offer.jobId));
    return { handed, position: arrived ?? 0, jobIds: jobIds.filter((jobId) => !handedIds.has(jobId)) };
  }
}

/**
 * Tells waiting long polls that a job was requested for their host: at
 * once for jobs requested in this process (JobRequestedNotice on the
 * EventBus), and within SCAN_MS for jobs other replicas requested, by
 * scanning the jobs projection for new rows after the last position seen.
 * As WaitingPolls, it lends a waiting poll to a job request in this
 * process, which records the job dispatched to it with its request.
 */
@Injectable()
export class JobArrivals implements OnApplicationBootstrap, OnModuleDestroy, WaitingPolls {
  private readonly tickets = new Map<string, Set<ArrivalTicket>>();
  private subscription: Subscription | undefined;
  private timer: NodeJS.Timeout | undefined;
  private seen: number | undefined;
  private stopped = false;

  constructor(
    @Inject(EventBus) private readonly eventBus: EventBus,
    @Inject(JobQueries) private readonly queries: JobQueries,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.eventBus.pipe(ofType(JobRequestedNotice)).subscribe((notice) => this.wake(notice.hostname, notice.position, notice.jobId));
    this.scheduleScan(0);
  }

  /** Ends every waiting poll, so that none holds the HTTP server (and the database) open at shutdown. */
  onModuleDestroy(): void {
    this.stopped = true;
    this.subscription?.unsubscribe();
    clearTimeout(this.timer);
    for (const tickets of this.tickets.values()) for (const ticket of tickets) ticket.end();
  }

  /** A ticket for `hostname`'s arrivals from now on, for a poll from `agentBoot`; close it when the poll answers. */
  ticket(hostname: string, agentBoot: string | null): ArrivalTicket {
    const ticket = new ArrivalTicket(agentBoot, (closed) => {
      const set = this.tickets.get(hostname);
      set?.delete(closed);
      if (set?.size === 0) this.tickets.delete(hostname);
    });
    if (this.stopped) ticket.end();
    const set = this.tickets.get(hostname) ?? new Set();
    set.add(ticket);
    this.tickets.set(hostname, set);
    return ticket;
  }

  /** The newest poll of `hostname` that waits now, set aside for one job request. */
  take(hostname: string): WaitingPoll | undefined {
    return [...(this.tickets.get(hostname) ?? [])].reverse().find((ticket) => ticket.reserve());
  }

  /** Long polls of `hostname` waiting now, past their first look (for status and tests). */
  waitingPolls(hostname: string): number {
    return [...(this.tickets.get(hostname) ?? [])].filter((ticket) => ticket.isWaiting).length;
  }

  private wake(hostname: string, position: number, jobId?: string): void {
    for (const ticket of this.tickets.get(hostname) ?? []) ticket.arrive(position, jobId);
  }

  private scheduleScan(delayMs = SCAN_MS): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.scan().finally(() => this.scheduleScan()), delayMs);
    this.timer.unref();
  }

  private async scan(): Promise<void> {
    try {
      // Start from what the projection holds now: jobs before it were there for a poll's first query.
      if (this.seen === undefined) {
        this.seen = await this.queries.lastRequestedPosition();
        return;
      }
      for (;;) {
        const arrivals = await this.queries.requestedAfter(this.seen, SCAN_BATCH);
        for (const { hostname, position } of arrivals) this.wake(hostname, position);
        if (arrivals.length > 0) this.seen = arrivals[arrivals.length - 1].position;
        if (arrivals.length < SCAN_BATCH) return;
      }
    } catch {
      // The projection's tables may not exist yet (its processor prepares them at start-up): scan again next time.
    }
  }
}
