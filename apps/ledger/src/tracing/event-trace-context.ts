import { type Context, context, propagation, ROOT_CONTEXT, type SpanContext, trace } from '@opentelemetry/api';
import type { NewEvent, RecordedEvent } from '@ledger/eventstore';

/** The events with the active span's `traceparent` in their metadata (as they were when no span is active). */
export function withTraceparent(events: readonly NewEvent[]): readonly NewEvent[] {
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  const { traceparent } = carrier;
  return traceparent === undefined ? events : events.map((event) => ({ ...event, metadata: { ...event.metadata, traceparent } }));
}

/** The trace an event was appended in, as a parent context (the root context when it carries none). */
export function eventTraceContext(event: RecordedEvent): Context {
  const traceparent = event.metadata.traceparent;
  return traceparent === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, { traceparent });
}

/** The span contexts the events were appended in, for links from a span that handles them together (at most `max`, distinct). */
export function eventSpanLinks(events: readonly RecordedEvent[], max = 32): { context: SpanContext }[] {
  const seen = new Set<string>();
  const links: { context: SpanContext }[] = [];
  for (const event of events) {
    const traceparent = event.metadata.traceparent;
    if (traceparent === undefined || seen.has(traceparent)) continue;
    seen.add(traceparent);
    const spanContext = trace.getSpanContext(eventTraceContext(event));
    if (spanContext) links.push({ context: spanContext });
    if (links.length === max) break;
  }
  return links;
}
