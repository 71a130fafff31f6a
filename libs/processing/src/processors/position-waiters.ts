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

/** The processors a wait is about, by name; undefined for all of them. */
export type ProcessorSelection = readonly string[] | undefined;

interface Waiter {
  readonly position: number;
  readonly among: ProcessorSelection;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/** Pending `waitForPosition` calls, settled as the slowest processor each waits for moves. */
export class PositionWaiters {
  private readonly waiting = new Set<Waiter>();

  constructor(
    /** The lowest position over the selected processors. */
    private readonly lowest: (among: ProcessorSelection) => number,
    /** Names and positions of the selected processors behind a position, for the error. */
    private readonly behind: (position: number, among: ProcessorSelection) => string[],
  ) {}

  wait(position: number, timeoutMs: number, among?: ProcessorSelection): Promise<void> {
    if (this.lowest(among) >= position) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        position,
        among,
        resolve,
        reject,
        timer: setTimeout(
          () => this.settle(waiter, new PositionNotReachedError(position, `timed out after ${timeoutMs} ms`, this.behind(position, among))),
          timeoutMs,
        ),
      };
      this.waiting.add(waiter);
    });
  }

  notify(): void {
    for (const waiter of this.waiting) if (waiter.position <= this.lowest(waiter.among)) this.settle(waiter);
  }

  rejectAll(reason: string): void {
    for (const waiter of this.waiting) this.settle(waiter, new PositionNotReachedError(waiter.position, reason, this.behind(waiter.position, waiter.among)));
  }

  private settle(waiter: Waiter, error?: Error): void {
    clearTimeout(waiter.timer);
    this.waiting.delete(waiter);
    if (error) waiter.reject(error);
    else waiter.resolve();
  }
}
