import { SpanKind } from '@opentelemetry/api';
import { type EventStore, streamCategory } from '@ledger/eventstore';
import { withTraceparent } from './event-trace-context';
import { inSpan } from './ledger-tracer';

/**
 * The event store with a client span per append (`append <category>`), whose
 * `traceparent` each appended event records in its metadata, so the
 * processors that act on the event later continue the trace. Reads pass
 * through untraced: they are many, and the spans around them say enough.
 */
export function tracedEventStore(store: EventStore): EventStore {
  return {
    kind: store.kind,
    append: (stream, events, options) =>
      inSpan(
        `append ${streamCategory(stream)}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'db.system.name': store.kind,
            'db.operation.name': 'append',
            'ledger.stream': stream,
            'ledger.events': events.length,
            'ledger.event_types': [...new Set(events.map((event) => event.type))],
            ...(events[0] ? { 'ledger.correlation_id': events[0].metadata.correlationId } : {}),
          },
        },
        async (span) => {
          const result = await store.append(stream, withTraceparent(events), options);
          span.setAttribute('ledger.position', result.position);
          return result;
        },
      ),
    readStream: (stream, options) => store.readStream(stream, options),
    readAll: (options) => store.readAll(options),
    ...(store.readAllStored ? { readAllStored: store.readAllStored.bind(store) } : {}),
    headPosition: () => store.headPosition(),
    subscribe: (options) => store.subscribe(options),
    waitForAppend: (timeoutMs, signal) => store.waitForAppend(timeoutMs, signal),
    close: () => store.close(),
  };
}
