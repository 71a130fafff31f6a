/**
 * At most `limit` calls in flight; the rest wait in arrival order. One
 * limiter is shared by every simulated host, so a fleet of thousands keeps
 * a bounded number of connections to the ledger (fetch reuses them).
 */
export class RequestLimiter {
  private active = 0;
  private closed = false;
  private readonly waiting: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];

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
    if (this.closed) throw new LimiterClosedError();
    if (this.active >= this.limit) await new Promise<void>((resolve, reject) => this.waiting.push({ resolve, reject }));
    else this.active++;
    try {
      return await call();
    } finally {
      // The slot passes straight to the next caller, so `active` never dips and a newcomer cannot jump the queue.
      const next = this.waiting.shift();
      if (next) next.resolve();
      else this.active--;
    }
  }

  /**
   * Refuses every call waiting for a slot, and every later one, with a
   * LimiterClosedError; calls in flight finish. A stopping fleet would
   * otherwise wait for its whole queue (180,000 calls in the 100,000-host
   * benchmark) to be sent first.
   */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.reject(new LimiterClosedError());
  }
}

export class LimiterClosedError extends Error {
  override readonly name = 'LimiterClosedError';

  constructor() {
    super('the fleet is stopping: call not sent');
  }
}
