import { context, propagation, SpanKind } from '@opentelemetry/api';
import type { MessagePublisher } from '@ledger/messaging';
import { inSpan } from './ledger-tracer';

/**
 * The Kafka publisher with a producer span per batch sent (`publish`),
 * whose W3C `traceparent` every message carries as a header: a consumer
 * that traces continues from it (the relay's span links to the appends).
 */
export function tracedPublisher(publisher: MessagePublisher): MessagePublisher {
  return {
    publish: (messages) => {
      const topics = [...new Set(messages.map((message) => message.topic))];
      return inSpan(
        `publish ${topics.length === 1 ? topics[0] : 'events'}`,
        { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'kafka', 'messaging.operation.type': 'send', 'messaging.batch.message_count': messages.length, 'messaging.destination.name': topics } },
        () => {
          const trace: Record<string, string> = {};
          propagation.inject(context.active(), trace);
          return publisher.publish(messages.map((message) => ({ ...message, headers: { ...message.headers, ...trace } })));
        },
      );
    },
    close: () => publisher.close(),
  };
}
