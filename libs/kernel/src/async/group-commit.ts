/** What a commit decided for one request: its result, or the error its caller gets. */
export type CommitOutcome<Result> = { readonly result: Result } | { readonly error: Error };

/** Commits a batch; returns one outcome per request, in order. Throwing fails the whole batch. */
export type BatchCommitter<Request, Result> = (
  requests: readonly Request[],
) => Promise<readonly CommitOutcome<Result>[]> | readonly CommitOutcome<Result>[];

export interface GroupCommitStats {
  /** Batches committed (one transaction, one fsync or one round trip each). */
  readonly batches: number;
  readonly requests: number;
}

/** Told of each batch once it is committed (or failed): for metrics, kept out of the commit's way. */
export type BatchObserver = (requests: number, seconds: number) => void;

interface Queued<Request, Result> {
  readonly request: Request;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/**
 * Group commit: requests queue up, and one flush (scheduled with
 * setImmediate, so every request made in the same turn of the event loop
 * joins) commits them all at once. While a flush is in flight, new requests
 * accumulate for the next one, so a slow commit makes batches bigger rather
 * than queues longer: throughput follows load without one fsync or round
 * trip per append.
 */
export class GroupCommit<Request, Result> {
  private pending: Queued<Request, Result>[] = [];
  private flushing: Promise<void> | undefined;
  private scheduled = false;
  private batches = 0;
  private requests = 0;

  constructor(
    private readonly commit: BatchCommitter<Request, Result>,
    /** Upper bound on requests per batch, so one statement or transaction stays bounded. */
    private readonly maxBatch = 1000,
    private readonly observe?: BatchObserver,
  ) {}

  submit(request: Request): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.pending.push({ request, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once every request submitted so far is settled. */
  async drain(): Promise<void> {
    while (this.pending.length > 0 || this.flushing) await this.start();
  }

  stats(): GroupCommitStats {
    return { batches: this.batches, requests: this.requests };
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.start();
    });
  }

  private start(): Promise<void> {
    this.flushing ??= this.flushAll().finally(() => {
      this.flushing = undefined;
      // Requests that arrived after the last batch was taken.
      if (this.pending.length > 0) this.schedule();
    });
    return this.flushing;
  }

  private async flushAll(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.maxBatch);
      this.batches++;
      this.requests += batch.length;
      const started = this.observe ? performance.now() : 0;
      try {
        const outcomes = await this.commit(batch.map((queued) => queued.request));
        batch.forEach((queued, index) => {
          const outcome = outcomes[index];
          if ('error' in outcome) queued.reject(outcome.error);
          else queued.resolve(outcome.result);
        });
      } catch (error) {
        for (const queued of batch) queued.reject(error);
      }
      this.observe?.(batch.length, (performance.now() - started) / 1000);
    }
  }
}
