/**
 * Time as the agent's loops see it, injectable so their specs can step
 * through intervals and back-offs without waiting for them.
 */
export interface Timers {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or as soon as `signal` aborts (never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realTimers: Timers = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
    }),
};

/**
 * A loop's wait between rounds that someone else can cut short: `wake()`
 * ends the current wait, or the next one at once if the loop is busy, so a
 * hint ("jobs are waiting", "report now") is never lost between rounds.
 */
export class Pause {
  private pending = false;
  private current?: AbortController;

  constructor(
    private readonly timers: Timers,
    private readonly stop: AbortSignal,
  ) {}

  async for(ms: number): Promise<void> {
    if (this.pending || this.stop.aborted) {
      this.pending = false;
      return;
    }
    const controller = new AbortController();
    const onStop = () => controller.abort();
    this.stop.addEventListener('abort', onStop, { once: true });
    this.current = controller;
    try {
      await this.timers.sleep(ms, controller.signal);
    } finally {
      this.current = undefined;
      this.stop.removeEventListener('abort', onStop);
    }
  }

  wake(): void {
    if (this.current) this.current.abort();
    else this.pending = true;
  }
}
