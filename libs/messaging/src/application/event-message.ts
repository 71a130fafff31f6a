import { eventTopic, LEDGER_HEADERS, type LedgerEventEnvelope } from '@ledger/contracts';
import type { RecordedEvent } from '@ledger/eventstore';
import type { OutgoingMessage } from './message-publisher.port';

/**
 * The Kafka message of a recorded event (docs/kafka.md): its context's
 * topic, keyed by stream so a stream's events share a partition and keep
 * their order, the envelope as the value, and the facts a consumer routes
 * and deduplicates by as headers, so it need not parse the value to skip it.
 */
export function eventMessage(event: RecordedEvent, topicPrefix: string): OutgoingMessage {
  // Typed as the published envelope: a change to RecordedEvent that breaks the contract stops the build here.
  const envelope: LedgerEventEnvelope = event;
  return {
    topic: eventTopic(topicPrefix, event.type),
    key: event.stream,
    value: JSON.stringify(envelope),
    headers: {
      [LEDGER_HEADERS.eventId]: event.id,
      [LEDGER_HEADERS.eventType]: event.type,
      [LEDGER_HEADERS.schemaVersion]: String(event.metadata.schemaVersion),
      [LEDGER_HEADERS.correlationId]: event.metadata.correlationId,
    },
  };
}
