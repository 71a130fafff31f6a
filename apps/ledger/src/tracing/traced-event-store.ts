import { type Attributes, SpanKind } from '@opentelemetry/api';
import { type EventStore, type StreamAppend, streamCategory } from '@ledger/eventstore';
import { withTraceparent } from './event-trace-context';
import { inSpan } from './ledger-tracer';

/**
 * The event store with a client span per append (`append <category>`, or
 * `append <category>,<category>` for an appendMany), whose `traceparent`
 * each appended event records in its metadata, so the processors that act on
 * the event later continue the trace. Reads pass through untraced: they are
 * many, and the spans around them say enough.
 */
export function tracedEventStore(store: EventStore): EventStore {
  const traced = <Result>(operation: 'append' | 'appendMany', appends: readonly StreamAppend[], run: (appends: StreamAppend[]) => Promise<Result>, positionOf: (result: Result) => number) =>
    inSpan(
      `append ${[...new Set(appends.map(({ stream }) => streamCategory(stream)))].join(',')}`,
      { kind: SpanKind.CLIENT, attributes: { 'db.system.name': store.kind, 'db.operation.name': operation, ...appendAttributes(appends) } },
      async (span) => {
        const result = await run(appends.map((append) => ({ ...append, events: withTraceparent(append.events) })));
        span.setAttribute('ledger.position', positionOf(result));
        return result;
      },
    );
  return {
    kind: store.kind,
    multiStreamAppend: store.multiStreamAppend,
    append: (stream, events, options) =>
      traced('append', [{ stream, events, expected: options.expected }], ([append]) => store.append(append.stream, append.events, options), (result) => result.position),
    appendMany: (appends) => traced('appendMany', appends, (withParent) => store.appendMany(withParent), (results) => results[results.length - 1].position),
    readStream: (stream, options) => store.readStream(stream, options),
    readAll: (options) => store.readAll(options),
    ...(store.readAllStored ? { readAllStored: store.readAllStored.bind(store) } : {}),
    ...(store.location ? { location: store.location.bind(store) } : {}),
    ...(store.announcementEpoch ? { announcementEpoch: store.announcementEpoch.bind(store) } : {}),
    headPosition: () => store.headPosition(),
    subscribe: (options) => store.subscribe(options),
    waitForAppend: (timeoutMs, signal) => store.waitForAppend(timeoutMs, signal),
    close: () => store.close(),
  };
}

/** One stream is `ledger.stream`, as single appends always had it; several are `ledger.streams`. */
function appendAttributes(appends: readonly StreamAppend[]): Attributes {
  const events = appends.flatMap((append) => append.events);
  return {
    ...(appends.length === 1 ? { 'ledger.stream': appends[0].stream } : { 'ledger.streams': appends.map((append) => append.stream) }),
    'ledger.events': events.length,
    'ledger.event_types': [...new Set(events.map((event) => event.type))],
    ...(events[0] ? { 'ledger.correlation_id': events[0].metadata.correlationId } : {}),
  };
}
