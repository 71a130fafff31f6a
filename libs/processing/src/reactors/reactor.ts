import type { EventFilter, RecordedEvent } from '@ledger/eventstore';

export interface ReactContext {
  /** 1 on first delivery; counts the attempts at this event (or batch) since it last succeeded elsewhere. */
  readonly attempt: number;
  /** Aborts when the runtime stops; pass it to the outside call. */
  readonly signal: AbortSignal;
}

/**
 * A processor that acts on the world outside the ledger (Nova, Placement,
 * Kafka, agents) through a port. The runtime hands it the log after its own
 * checkpoint, under its own lease, and moves the checkpoint only once `react`
 * resolved: delivery is at least once, so calls must be idempotent (key them
 * by `event.id`). `react` decides from the event and what it reads, never
 * from the clock: the runtime owns time (backoff, timers).
 *
 * Failures: throw `ReactorUnavailableError` when the outside is down (retried
 * with backoff for as long as it takes, never parked) and
 * `ReactorRejectedError` when it refuses this event (parked after the
 * runtime's `maxAttempts`); `classifyHttpFailure` turns HTTP answers and
 * `fetch` failures into one of the two. Any other error counts as a rejection.
 */
export interface Reactor {
  /** Stable name: the key of its checkpoint, lease and parked events. */
  readonly name: string;
  /** Event types it reacts to; [] = every type. */
  readonly handles: readonly string[];
  readonly filter?: Pick<EventFilter, 'categories'>;
  /**
   * Where the reactor starts when it has no checkpoint yet: `beginning`
   * (position 0, the default: a relay that must see all history) or `head`
   * (only what is recorded from now on: a notifier whose old news is no news).
   */
  readonly startAt?: 'beginning' | 'head';
  /**
   * Events read (and handed to `reactBatch`) at a time, when it should
   * differ from the runtime's: a producer's send pays per request, so the
   * Kafka relay takes larger batches than a notifier's one call per event.
   */
  readonly batchSize?: number;
  /** Resolves once the outside acknowledged the event. */
  react(event: RecordedEvent, context: ReactContext): Promise<void>;
  /**
   * Optional: acknowledges a whole batch at once (a Kafka producer's send).
   * When it throws `ReactorRejectedError`, the runtime goes through the
   * batch again one event at a time with `react`, to find and park the poison one.
   */
  reactBatch?(events: readonly RecordedEvent[], context: ReactContext): Promise<void>;
}

/** The checkpoint and lease key of a reactor: apart from the projections' names. */
export const reactorKey = (name: string): string => `reactor:${name}`;
