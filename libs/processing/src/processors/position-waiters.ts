import { LedgerError } from '@ledger/kernel';

/** `waitForPosition` timed out (or the runtime stopped) before every processor got there. */
export class PositionNotReachedError extends LedgerError {
  constructor(position: number, reason: string, behind: readonly string[]) {
    super('PROCESSING.POSITION_NOT_REACHED', 504, `processors did not reach position ${position} (${reason}): ${behind.join(', ')}`, {
      position,
      behind,
    });
  }
}

interface Waiter {
  readonly position: number;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/** Pending `waitForPosition` calls, settled as the slowest processor's position moves. */
export class PositionWaiters {
  private readonly waiting = new Set<Waiter>();

  constructor(
    /** The lowest position over all processors. */
    private readonly lowest: () => number,
    /** Names and positions of the processors behind a position, for the error. */
    private readonly behind: (position: number) => string[],
  ) {}

  wait(position: number, timeoutMs: number): Promise<void> {
    if (this.lowest() >= position) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        position,
        resolve,
        reject,
        timer: setTimeout(() => this.settle(waiter, new PositionNotReachedError(position, `timed out after ${timeoutMs} ms`, this.behind(position))), timeoutMs),
      };
      this.waiting.add(waiter);
    });
  }

  notify(): void {
    if (this.waiting.size === 0) return;
    const lowest = this.lowest();
    for (const waiter of this.waiting) if (waiter.position <= lowest) this.settle(waiter);
  }

  rejectAll(reason: string): void {
    for (const waiter of this.waiting) this.settle(waiter, new PositionNotReachedError(waiter.position, reason, this.behind(waiter.position)));
  }

  private settle(waiter: Waiter, error?: Error): void {
    clearTimeout(waiter.timer);
    this.waiting.delete(waiter);
    if (error) waiter.reject(error);
    else waiter.resolve();
  }
}
