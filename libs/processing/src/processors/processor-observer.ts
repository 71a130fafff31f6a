/**
 * What the processor loops (projections, reactors, workflows) tell an
 * observer, the ledger's metrics, as they work. Calls are synchronous and
 * made after the fact; an observer must be cheap and must not throw.
 * `processor` is the checkpoint's key: `inventory`, `reactor:kafka-relay`, `workflow:bind`.
 */
export interface ProcessorObserver {
  /** A batch went through and the checkpoint moved past it: `events` is how many it held (those the filter reads). */
  batchProcessed(processor: string, events: number): void;
  /** An attempt failed (the database, an apply, the outside refusing or down) and will be made again. */
  attemptFailed(processor: string): void;
}
