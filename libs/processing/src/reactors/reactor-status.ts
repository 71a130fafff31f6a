import type { ProcessorState } from '../processors/processor-status';

/**
 * A reactor's state is a processor's, plus two while an event is failing:
 * - `unavailable`: the outside is down; the event is retried with backoff for as long as it takes;
 * - `retrying`: the outside rejected the event; it is retried, then parked after `maxAttempts`;
 * and one while a call hangs:
 * - `stalled`: a call to the outside that had not failed before has been
 *   outstanding longer than the runtime's `stalledAfterMs` (a hung outside
 *   answers nothing, so only the wait tells); `stalled` says which call.
 */
export type ReactorState = ProcessorState | 'unavailable' | 'retrying' | 'stalled';

/** A call to the outside outstanding longer than the runtime's `stalledAfterMs`. */
export interface StalledCall {
  /** The position of the event (or of a batch's first event) the call carries. */
  readonly position: number;
  readonly eventId: string;
  /** Events the call carries (a batch's size, else 1). */
  readonly events: number;
  /** When the call began (ISO time). */
  readonly since: string;
}

export interface ReactorStatus {
  readonly name: string;
  /** Position up to which the outside acknowledged (or the reactor parked) every event. */
  readonly position: number;
  readonly state: ReactorState;
  /** Events in the log after `position`. */
  readonly lag: number;
  /** Events parked for an operator. */
  readonly parked: number;
  /** Attempts at the failing event (0 when nothing fails). */
  readonly failures: number;
  readonly lastError?: string;
  /** Since when the outside has been down (ISO time), while it is. */
  readonly unavailableSince?: string;
  /** What was done when the checkpoint disagreed with the log at start (see ProcessorStatus.restored). */
  readonly restored?: string;
  /** The call to the outside outstanding past the bound, while there is one (also while `unavailable` or `retrying`: a retry that hangs). */
  readonly stalled?: StalledCall;
  /** The failing event and when it is tried next. */
  readonly retrying?: { readonly position: number; readonly eventId: string; readonly attempts: number; readonly nextAttemptAt: string };
}

/** The answer to an operator's retry of a parked event. */
export type ParkedRetryOutcome =
  /** The outside acknowledged it; it is no longer parked. */
  | { readonly outcome: 'delivered' }
  /** It failed again and stays parked with the new error. */
  | { readonly outcome: 'failed'; readonly error: string }
  /** Another instance runs the reactor; it will retry within a third of the lease TTL. */
  | { readonly outcome: 'requested' };
