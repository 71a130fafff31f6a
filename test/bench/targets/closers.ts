/**
 * Things to close at the end of a store's run, closed newest first. Errors
 * are reported, not thrown. Once closing has begun nothing new may be
 * opened (an interrupted run must not leave a schema behind).
 */
export class Closers {
  private readonly closers: Array<() => Promise<void>> = [];
  private closing = false;

  /** Throws once closing has begun: call before creating anything. */
  assertOpen(): void {
    if (this.closing) throw new Error('the benchmark target is closed');
  }

  add<T extends { close(): Promise<void> }>(resource: T): T {
    this.closers.push(() => resource.close());
    return resource;
  }

  defer(close: () => Promise<void> | void): void {
    this.closers.push(async () => close());
  }

  async closeAll(onError: (error: unknown) => void): Promise<void> {
    this.closing = true;
    while (this.closers.length > 0) {
      const close = this.closers.pop() as () => Promise<void>;
      await close().catch(onError);
    }
  }
}
