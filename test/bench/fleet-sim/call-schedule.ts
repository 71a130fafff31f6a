/**
 * One kind of call (reports, or heartbeats) for a whole fleet, as a single
 * cursor: call k goes to host k mod `hosts`, due at `startMs` plus that
 * host's offset (hosts spread evenly over `spreadMs`) plus one interval per
 * round. With `spreadMs` no longer than the interval, calls fall due in the
 * order of k, so what is due is always the next k: no timer, queue or
 * state per host, and a call the sender could not take yet stays due until
 * it can (nothing is dropped).
 */
export class CallSchedule {
  private next = 0;

  constructor(
    readonly hosts: number,
    readonly startMs: number,
    readonly intervalMs: number,
    readonly spreadMs = intervalMs,
  ) {
    if (!(hosts > 0) || !(intervalMs > 0) || spreadMs < 0 || spreadMs > intervalMs) throw new RangeError(`no schedule of ${hosts} hosts every ${intervalMs} ms spread over ${spreadMs} ms`);
  }

  /** When call `k` is due. */
  dueAt(k: number): number {
    const host = k % this.hosts;
    return this.startMs + Math.floor((host * this.spreadMs) / this.hosts) + Math.floor(k / this.hosts) * this.intervalMs;
  }

  /** The host of the next call if it is due at `nowMs` (and moves on), or -1. */
  take(nowMs: number): number {
    if (this.dueAt(this.next) > nowMs) return -1;
    return this.next++ % this.hosts;
  }

  /** When the next call is due. */
  nextDueAt(): number {
    return this.dueAt(this.next);
  }

  /** Calls taken so far. */
  get taken(): number {
    return this.next;
  }

  /** How far behind its due time the next call is at `nowMs` (0 when on time): the sender's backlog, in time. */
  lagMs(nowMs: number): number {
    return Math.max(0, nowMs - this.dueAt(this.next));
  }
}
