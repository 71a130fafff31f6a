import type { EventStore } from '../event-store.port';
import { streamCategory } from '../envelope';
import type { StreamFreshness } from './stream-freshness';

export interface StreamVersionWatchOptions {
  /** The stream categories watched (`host` for `host-…`); a stream of another category is never current. */
  readonly categories: readonly string[];
  /** Streams remembered at once, the least recently confirmed forgotten first (default 250,000). */
  readonly capacity?: number;
  /** Longest wait for an announcement before reading the log anyway (default 5,000 ms). */
  readonly pollMs?: number;
}

/**
 * Knows, per process, which streams nothing was appended to since this
 * process last read or wrote them, so that a cached state can be trusted
 * without reading its (almost always empty) tail: a heartbeat's liveness
 * decision and an unchanged report's short cut were a round trip each on
 * PostgreSQL.
 *
 * A stream read or appended at version v is confirmed at v. Every commit,
 * by this process or another, is announced (`waitForAppend` wakes: NOTIFY on
 * PostgreSQL, the in-process signal on SQLite); an announcement makes the
 * watch unsettled until it has read the log past it (one read of the
 * watched categories for any number of calls) and forgotten every confirmed
 * stream that moved. While unsettled, or when the store says announcements
 * may have been missed (`announcementEpoch` changed: PostgreSQL's listening
 * connection was lost, another process committed to the SQLite file), no
 * stream is current and callers read the tail as before. A confirmation is
 * taken only if the watch read nothing of the log between its mark and the
 * confirmation, so a read racing an append cannot confirm a version the
 * watch has already seen pass.
 *
 * What it cannot see: a commit whose announcement has not arrived yet (on
 * PostgreSQL, the NOTIFY's trip from the database); a call in that window
 * decides as if it came just before the commit.
 */
export class StreamVersionWatch implements StreamFreshness {
  private readonly versions = new Map<string, number>();
  private readonly categories: ReadonlySet<string>;
  private readonly capacity: number;
  private readonly pollMs: number;
  private readonly stopped = new AbortController();
  /** The log is read up to here; undefined before the first catch-up. */
  private position: number | undefined;
  /** The store's announcement epoch when the last catch-up began. */
  private epoch: number | undefined;
  /** Something was announced since the last catch-up began. */
  private woken = true;
  private catchingUp: Promise<void> | undefined;

  constructor(
    private readonly store: EventStore,
    options: StreamVersionWatchOptions,
  ) {
    this.categories = new Set(options.categories);
    this.capacity = options.capacity ?? 250_000;
    this.pollMs = options.pollMs ?? 5_000;
    if (store.announcementEpoch) this.listen();
  }

  isCurrent(stream: string, version: number): boolean {
    // A store that announces nothing (EventStoreDB): every tail is read, as without a watch.
    if (this.store.announcementEpoch === undefined) return false;
    if (!this.settled()) {
      void this.catchUp();
      return false;
    }
    return this.versions.get(stream) === version;
  }

  mark(): number | undefined {
    return this.position;
  }

  confirm(stream: string, version: number, mark: number | undefined): void {
    if (mark === undefined || mark !== this.position || !this.categories.has(streamCategory(stream))) return;
    this.versions.delete(stream);
    this.versions.set(stream, version);
    if (this.versions.size > this.capacity) this.versions.delete(this.versions.keys().next().value as string);
  }

  /** Reads the log after what it has read, now (tests, and the first call after an announcement). */
  catchUp(): Promise<void> {
    this.catchingUp ??= this.readOn().finally(() => {
      this.catchingUp = undefined;
    });
    return this.catchingUp;
  }

  close(): void {
    this.stopped.abort();
  }

  private settled(): boolean {
    return !this.woken && this.catchingUp === undefined && this.epoch !== undefined && this.store.announcementEpoch?.() === this.epoch;
  }

  private async readOn(): Promise<void> {
    const epoch = this.store.announcementEpoch?.();
    // Not listening: stay unsettled; the next wait for an announcement re-establishes it.
    if (epoch === undefined) return;
    this.woken = false;
    try {
      this.position ??= await this.store.headPosition();
      for (;;) {
        const { events, position } = await this.store.readAll({ after: this.position, filter: { categories: [...this.categories] } });
        for (const { stream, version } of events) {
          const confirmed = this.versions.get(stream);
          if (confirmed !== undefined && version > confirmed) this.versions.delete(stream);
        }
        if (position === this.position) break;
        this.position = position;
      }
      this.epoch = epoch;
    } catch {
      // A failed read leaves the watch unsettled: callers read tails, and the next call tries again.
      this.woken = true;
    }
  }

  /** Every wake-up (an announcement, or the poll's timeout) unsettles the watch; the wait is armed again at once so none is missed. */
  private listen(): void {
    const wake = (): void => {
      if (this.stopped.signal.aborted) return;
      this.woken = true;
      // A closed store (or a lost listener) answers a wait at once: wait the poll out instead of spinning.
      if (this.store.announcementEpoch?.() === undefined) {
        // A zero wait still asks the store to re-establish its listening (PostgreSQL's beforeWait).
        void this.store.waitForAppend(0);
        setTimeout(wake, this.pollMs).unref();
        return;
      }
      this.store.waitForAppend(this.pollMs, this.stopped.signal).then(wake, wake);
    };
    wake();
  }
}
