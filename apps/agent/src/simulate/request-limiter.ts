/**
 * At most `limit` calls in flight; the rest wait in arrival order. One
 * limiter is shared by every simulated host, so a fleet of thousands keeps
 * a bounded number of connections to the ledger (fetch reuses them).
 */
export class RequestLimiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
  }

  /** Calls in flight now. */
  get inFlight(): number {
    return this.active;
  }

  /** Calls waiting for a slot now. */
  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(call: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await call();
    } finally {
      // The slot passes straight to the next caller, so `active` never dips and a newcomer cannot jump the queue.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
