/**
 * In-process wake-up for `waitForAppend`: waiters resolve at the next
 * `notify()` (a commit this process made or was told about), on abort, or
 * when their timeout passes, which is how commits that nobody announces
 * (another process on the same SQLite file) are still noticed by polling.
 */
export class AppendSignal {
  private readonly waiters = new Set<() => void>();

  wait(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal?.addEventListener('abort', done, { once: true });
      this.waiters.add(done);
    });
  }

  notify(): void {
    for (const done of [...this.waiters]) done();
  }
}
