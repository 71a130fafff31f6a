/** The topic prefix when LEDGER_KAFKA_TOPIC_PREFIX is unset. */
export const DEFAULT_TOPIC_PREFIX = 'accelerator-ledger';

/**
 * The version in every topic name: it changes only when the envelope or the
 * headers change incompatibly, so a consumer of `v1` never meets a `v2` message.
 */
export const TOPIC_CONTRACT_VERSION = 1;

/** The bounded context of an event type: the part before the first dot (`inventory.DeviceDiscovered` → `inventory`). */
export const eventContext = (eventType: string): string => {
  const dot = eventType.indexOf('.');
  return dot === -1 ? eventType : eventType.slice(0, dot);
};

/** The topic of one context's events, e.g. `accelerator-ledger.inventory.v1`. */
export const contextTopic = (prefix: string, context: string): string => `${prefix}.${context}.v${TOPIC_CONTRACT_VERSION}`;

/** The topic an event is published to. */
export const eventTopic = (prefix: string, eventType: string): string => contextTopic(prefix, eventContext(eventType));

/** The topic of the ledger's signed head checkpoints (one JSON line each, as in data/checkpoints.jsonl). */
export const checkpointsTopic = (prefix: string): string => `${prefix}.checkpoints.v${TOPIC_CONTRACT_VERSION}`;

/** Kafka header names on every event message (values are UTF-8 strings). */
export const LEDGER_HEADERS = {
  eventId: 'ledger-event-id',
  eventType: 'ledger-event-type',
  schemaVersion: 'ledger-schema-version',
  correlationId: 'ledger-correlation-id',
} as const;
