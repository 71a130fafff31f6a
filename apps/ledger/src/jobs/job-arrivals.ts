import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { EventBus, ofType } from '@nestjs/cqrs';
import type { Subscription } from 'rxjs';
import { JobRequestedNotice } from '@ledger/jobs';
import { JobQueries } from '@ledger/projections/jobs';

/** How often the jobs projection is scanned for jobs requested on other replicas. */
const SCAN_MS = 500;
const SCAN_BATCH = 1000;

/** What woke a long poll: the newest position of a job requested for its host, and the ids of those requested in this process. */
export interface Arrival {
  readonly position: number;
  /** Jobs requested in this process since the last wait (a replica's, found by the scan, are not named). */
  readonly jobIds: readonly string[];
}

/** Wakes one long poll: collects arrivals from its creation on, so none is lost between a poll's query and its wait. */
export class ArrivalTicket {
  private arrived: number | undefined;
  private jobIds: string[] = [];
  private waiting: (() => void) | undefined;
  private hasEnded = false;

  constructor(private readonly onClose: (ticket: ArrivalTicket) => void) {}

  /** Resolves with what was requested for the host since the last wait, or undefined after `ms` or on abort. */
  wait(ms: number, signal: AbortSignal): Promise<Arrival | undefined> {
    if (this.arrived !== undefined || signal.aborted || this.hasEnded) return Promise.resolve(this.take());
    return new Promise((resolve) => {
      const done = () => {
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
    this.waiting?.();
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
    this.waiting?.();
  }

  private take(): Arrival | undefined {
    const { arrived, jobIds } = this;
    this.arrived = undefined;
    this.jobIds = [];
    return arrived === undefined ? undefined : { position: arrived, jobIds };
  }
}

/**
 * Tells waiting long polls that a job was requested for their host: at
 * once for jobs requested in this process (JobRequestedNotice on the
 * EventBus), and within SCAN_MS for jobs other replicas requested, by
 * scanning the jobs projection for new rows after the last position seen.
 */
@Injectable()
export class JobArrivals implements OnApplicationBootstrap, OnModuleDestroy {
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

  /** A ticket for `hostname`'s arrivals from now on; close it when the poll answers. */
  ticket(hostname: string): ArrivalTicket {
    const ticket = new ArrivalTicket((closed) => {
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

  /** Long polls of `hostname` waiting now (for status and tests). */
  waitingPolls(hostname: string): number {
    return this.tickets.get(hostname)?.size ?? 0;
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
