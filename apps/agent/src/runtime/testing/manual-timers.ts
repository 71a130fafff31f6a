import type { Timers } from '../timers';

interface Sleeper {
  readonly due: number;
  readonly resolve: () => void;
}

/**
 * Timers a spec moves by hand: `sleep` waits until `advance` passes its due
 * time (or its signal aborts); `requested` records every wait asked for, so a
 * spec can check intervals and back-offs without living through them.
 */
export class ManualTimers implements Timers {
  readonly requested: number[] = [];
  private readonly sleepers = new Set<Sleeper>();

  constructor(private time = Date.parse('2026-01-01T00:00:00Z')) {}

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.requested.push(ms);
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const sleeper: Sleeper = {
        due: this.time + ms,
        resolve: () => {
          this.sleepers.delete(sleeper);
          resolve();
        },
      };
      this.sleepers.add(sleeper);
      signal?.addEventListener('abort', sleeper.resolve, { once: true });
    });
  }

  /** How many waits are in progress. */
  get sleeping(): number {
    return this.sleepers.size;
  }

  /** Moves the clock on by `ms`, waking every wait that falls due, in order. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (const sleeper of [...this.sleepers].sort((a, b) => a.due - b.due)) {
      if (sleeper.due > target) break;
      this.time = Math.max(this.time, sleeper.due);
      sleeper.resolve();
    }
    this.time = target;
  }
}

/** Resolves once `condition` holds, checking after each turn of the event loop; fails after `limit` turns. */
export async function eventually(condition: () => boolean, limit = 1000): Promise<void> {
  for (let turn = 0; turn < limit; turn++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`condition not met after ${limit} event-loop turns: ${condition.toString()}`);
}
