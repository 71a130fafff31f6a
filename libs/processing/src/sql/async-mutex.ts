/**
 * Runs async sections one at a time, in call order. A failed section does
 * not block the ones queued behind it.
 */
export class AsyncMutex {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(section: () => Promise<T>): Promise<T> {
    const result = this.tail.then(section);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every section queued so far has settled. */
  async drain(): Promise<void> {
    await this.run(async () => undefined);
  }
}
