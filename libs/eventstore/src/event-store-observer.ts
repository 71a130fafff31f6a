/** How an append ended for its caller: appended, refused on its expected version, or failed otherwise. */
export type AppendOutcome = 'appended' | 'conflict' | 'failed';

/**
 * What a store tells an observer (the ledger's metrics) as it works. Calls
 * are synchronous and made after the fact; an observer must be cheap and
 * must not throw. The SQLite and PostgreSQL stores report both; the ESDB
 * store has no group commit and reports nothing.
 */
export interface EventStoreObserver {
  /** One append (or one appendMany) as its caller saw it: queueing for the group commit, the commit itself, and the wait for the result. */
  appendSettled(outcome: AppendOutcome, seconds: number): void;
  /** One group commit: how many appends it carried (an appendMany counts as one) and how long the transaction (or round trip) took. */
  commitFinished(appends: number, seconds: number): void;
}
