/**
 * Stops many loops at once. Each loop gets an AbortSignal of its own (the
 * agent's loops add and remove an abort listener at every wait); the group
 * keeps their controllers in a Set. One shared AbortSignal with a listener
 * per loop would do the same, but Node's EventTarget looks through every
 * listener for a duplicate on each add: a fleet of 100,000 hosts spent
 * minutes of CPU there, quadratic in the hosts.
 */
export class LoopGroup {
  private readonly controllers = new Set<AbortController>();
  private stopped = false;

  get aborted(): boolean {
    return this.stopped;
  }

  /** Loops in the group now. */
  get size(): number {
    return this.controllers.size;
  }

  /** Runs `loop` with a signal aborted when the group is; it leaves the group when it ends. Nothing runs in a group already aborted. */
  async run(loop: (signal: AbortSignal) => Promise<void>): Promise<void> {
    if (this.stopped) return;
    const own = new AbortController();
    this.controllers.add(own);
    try {
      await loop(own.signal);
    } finally {
      this.controllers.delete(own);
    }
  }

  /** Aborts every loop in the group, and any started later at once. */
  abort(): void {
    this.stopped = true;
    for (const controller of this.controllers) controller.abort();
    this.controllers.clear();
  }
}
