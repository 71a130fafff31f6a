/**
 * - `idle`: not running (before start, after stop);
 * - `catching-up`: holds the lease and is working through stored events;
 * - `live`: holds the lease and has processed everything it could read;
 * - `standby`: another instance holds the lease; position follows its checkpoint;
 * - `failed`: the last attempt threw; retrying with backoff from the same event.
 */
export type ProcessorState = 'idle' | 'catching-up' | 'live' | 'standby' | 'failed';

export interface ProcessorStatus {
  readonly name: string;
  /** Version of the read model as stored (the processor's own before its first run). */
  readonly version: number;
  /** Position up to which the log has been processed. */
  readonly position: number;
  readonly state: ProcessorState;
  /** Events in the log after `position` (the store's head minus position). */
  readonly lag: number;
  /** Consecutive failed attempts; 0 once an attempt succeeds. */
  readonly failures: number;
  /** Message of the last failure while `failures` > 0. */
  readonly lastError?: string;
  /** Set when the checkpoint disagreed with the log at start or lease takeover (past its head, or another event at its position: an older event store restored) and what was done about it. */
  readonly restored?: string;
}
