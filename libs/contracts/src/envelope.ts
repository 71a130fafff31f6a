/** Who caused an event (the ledger's own work is `{ user: 'ledger', project: null, roles: ['system'] }`). */
export interface LedgerActor {
  readonly user: string;
  readonly project: string | null;
  readonly roles: readonly string[];
}

export interface LedgerEventMetadata {
  /** Shared by every event caused, directly or not, by one request. */
  readonly correlationId: string;
  /** The message (request, command or event) that caused this one. */
  readonly causationId: string | null;
  readonly actor: LedgerActor;
  /** Version of `data`'s schema (libs/contracts/schemas: `x-schema-version`). */
  readonly schemaVersion: number;
  /** W3C trace context of the append that recorded it, present only when the ledger was exporting traces then. */
  readonly traceparent?: string;
}

/**
 * A Kafka message's value: the event exactly as the ledger recorded it.
 * `id` is what a consumer deduplicates by (delivery is at least once);
 * `version` orders a stream's events, `position` the whole log.
 */
export interface LedgerEventEnvelope<Type extends string = string, Data = unknown> {
  readonly id: string;
  readonly type: Type;
  /** `<category>-<id>`, e.g. `host-compute-1`: the message key. */
  readonly stream: string;
  /** 1-based version within the stream. */
  readonly version: number;
  /** 1-based, gap-free position in the ledger's global log. */
  readonly position: number;
  /** ISO-8601 UTC with milliseconds. */
  readonly recordedAt: string;
  readonly data: Data;
  readonly metadata: LedgerEventMetadata;
  /** Hash of the previous event in the global log. */
  readonly prevHash: string;
  /** Chain hash over this event and `prevHash`: `ledgerctl audit verify` checks the chain. */
  readonly hash: string;
}

/** A message value that is not an envelope: a consumer parks such a message, it does not guess. */
export class NotAnEventEnvelopeError extends Error {
  readonly code = 'CONTRACTS.NOT_AN_ENVELOPE';
}

/** Parses a message value into its envelope (the shape is checked, not each type's `data`: the schemas do that). */
export function parseEventEnvelope(value: Buffer | string): LedgerEventEnvelope {
  const parsed = JSON.parse(value.toString()) as Partial<LedgerEventEnvelope> | null;
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    typeof parsed.id !== 'string' ||
    typeof parsed.type !== 'string' ||
    typeof parsed.stream !== 'string' ||
    !Number.isInteger(parsed.position) ||
    typeof parsed.metadata !== 'object'
  ) {
    throw new NotAnEventEnvelopeError('the message value is not a ledger event envelope');
  }
  return parsed as LedgerEventEnvelope;
}
