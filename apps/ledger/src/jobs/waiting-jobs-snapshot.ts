/**
 * Jobs waiting per host, read for the whole fleet at once and answered from
 * memory for `freshMs`: a heartbeat's `jobsWaiting` is a hint (the agent
 * polls at once when it is above 0, and its long poll gets the job anyway),
 * so a second's staleness costs nothing, while a query per heartbeat cost
 * the ledger a database round trip on most of a fleet's calls. The first
 * heartbeat after `freshMs` waits for the next read, which every heartbeat
 * arriving meanwhile shares; a failed read is not kept.
 */
export class WaitingJobsSnapshot {
  private counts: ReadonlyMap<string, number> = new Map();
  private readAtMs = Number.NEGATIVE_INFINITY;
  private reading: Promise<ReadonlyMap<string, number>> | undefined;

  constructor(
    private readonly readAll: () => Promise<ReadonlyMap<string, number>>,
    private readonly freshMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async waiting(hostname: string): Promise<number> {
    const counts = this.now() - this.readAtMs < this.freshMs ? this.counts : await this.read();
    return counts.get(hostname) ?? 0;
  }

  private read(): Promise<ReadonlyMap<string, number>> {
    this.reading ??= (async () => {
      const startedAtMs = this.now();
      try {
        this.counts = await this.readAll();
        // Fresh from when the read began: a job requested while it ran may be missing from it.
        this.readAtMs = startedAtMs;
        return this.counts;
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }
}
