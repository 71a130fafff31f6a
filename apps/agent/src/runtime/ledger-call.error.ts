/**
 * Why a call to the ledger did not succeed, in the three classes the agent
 * acts on differently: `unreachable` (network, timeout: keep the work and
 * retry), `server` (5xx: the same), `refused` (4xx: the ledger understood
 * and said no; retrying the same request will not help, except for the
 * statuses `retryable` names).
 */
export type LedgerCallFailure = 'unreachable' | 'refused' | 'server';

export class LedgerCallError extends Error {
  constructor(
    readonly failure: LedgerCallFailure,
    /** The route, e.g. `PUT /api/v1/hosts/compute-1/report`. */
    readonly route: string,
    /** What went wrong, without the route: `cannot reach the ledger (ECONNREFUSED)`, `JOB.ALREADY_FINISHED: …`. */
    readonly reason: string,
    /** HTTP status; 0 when unreachable. */
    readonly status = 0,
    /** The problem document's `code` (`JOB.ALREADY_FINISHED`), or `HTTP.<status>` when it had none. */
    readonly code?: string,
  ) {
    super(`${route}: ${reason}`);
    this.name = 'LedgerCallError';
  }

  /** Worth sending again later: the ledger was away or broken, or the refusal is about the caller's credentials or rate, not the request. */
  get retryable(): boolean {
    return this.failure !== 'refused' || [401, 403, 408, 429].includes(this.status);
  }
}

export const isLedgerCallError = (error: unknown): error is LedgerCallError => error instanceof LedgerCallError;
