import { createHash } from 'node:crypto';

/**
 * After a failover, how long the agent stays on the address that answered
 * before it tries its preferred one again (5 min). A replica restarted by
 * its supervisor or a rolling upgrade is back within a minute, so its agents
 * return to it within minutes and the load evens out again; a replica that
 * keeps dying costs each of its agents one failed attempt per 5 min, not
 * one per call, and a flapping one does not move its agents back and forth.
 */
export const RETURN_TO_PREFERRED_MS = 5 * 60_000;

/**
 * Which of the ledger's API replicas an agent calls (docs/agent-protocol.md,
 * "Several ledger addresses"). Each agent prefers the address a stable hash
 * of its hostname picks, so a fleet given the same list spreads evenly over
 * the replicas; a call that finds its address down tries the others in turn,
 * the one that answered takes the next calls, and after
 * RETURN_TO_PREFERRED_MS the preferred address is tried first again.
 */
export class LedgerAddresses {
  readonly preferred: string;
  private current: number;
  private leftPreferredAt = 0;

  constructor(
    readonly urls: readonly string[],
    hostname: string,
    private readonly returnAfterMs = RETURN_TO_PREFERRED_MS,
    private readonly now: () => number = Date.now,
  ) {
    if (urls.length === 0) throw new Error('the agent needs at least one ledger address');
    this.current = preferredIndex(hostname, urls.length);
    this.preferred = urls[this.current];
  }

  /** The addresses in the order the next call tries them: the one in use first, then the others in list order, each once. */
  inTurn(): string[] {
    const preferred = this.urls.indexOf(this.preferred);
    if (this.current !== preferred && this.now() - this.leftPreferredAt >= this.returnAfterMs) this.current = preferred;
    return this.urls.map((_, offset) => this.urls[(this.current + offset) % this.urls.length]);
  }

  /** `url` answered a call: the next calls go there first. */
  answered(url: string): void {
    const index = this.urls.indexOf(url);
    if (index === this.current || index < 0) return;
    this.current = index;
    if (url !== this.preferred) this.leftPreferredAt = this.now();
  }
}

/** The hostname's place in a list of `count` addresses: the first 32 bits of its SHA-256, modulo `count` (the same on every agent and every run). */
export function preferredIndex(hostname: string, count: number): number {
  return createHash('sha256').update(hostname).digest().readUInt32BE(0) % count;
}
