/**
 * Runs commands on one stream one after another within this process. The
 * store's expected-version check keeps replicas correct on its own; queueing
 * here only spares a hot stream (a project's quota, a busy device) the
 * conflict-and-retry storm that many concurrent writers would otherwise cause.
 */
export class StreamLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(stream: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(stream) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(stream, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(stream) === tail) this.tails.delete(stream);
    }
  }

  /** Streams with a command running or queued (for tests and status). */
  get busy(): number {
    return this.tails.size;
  }
}
