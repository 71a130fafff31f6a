/**
 * Runs `flush` once nothing arrived for `quietMs`, and lets each arrival wait
 * for the flush that covers it: a consumer that resolves its batch only then
 * commits offsets only for what is applied (at least once, never at most once).
 */
export class QuietFlusher<T> {
  private timer: NodeJS.Timeout | undefined;
  private waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly quietMs: number,
    private readonly flush: () => Promise<T>,
  ) {}

  /** Resolves once a flush after this call has completed. */
  arrived(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), this.quietMs);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private run(): void {
    const covered = this.waiting;
    this.waiting = [];
    this.running = this.running.then(this.flush).then(
      () => covered.forEach((waiter) => waiter.resolve()),
      (error: unknown) => covered.forEach((waiter) => waiter.reject(error)),
    );
  }
}
