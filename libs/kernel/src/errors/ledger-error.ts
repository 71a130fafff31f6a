/**
 * The one base of every typed error in the ledger. `code` is stable and
 * documented (clients and tests match on it); `status` is the HTTP status the
 * API filters map it to; `facts` are the values that explain it (stream,
 * expected, actual…), rendered into problem details as extension members.
 */
export class LedgerError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly facts: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export const isLedgerError = (error: unknown): error is LedgerError => error instanceof LedgerError;
