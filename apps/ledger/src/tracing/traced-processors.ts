import { SpanKind } from '@opentelemetry/api';
import type { RecordedEvent } from '@ledger/eventstore';
import type { Processor, ReactContext, Reactor } from '@ledger/processing';
import type { AroundEventAdvance } from '@ledger/workflows';
import { eventSpanLinks, eventTraceContext } from './event-trace-context';
import { inSpan } from './ledger-tracer';

const batchAttributes = (events: readonly RecordedEvent[]) => ({
  'ledger.events': events.length,
  'ledger.position.first': events[0]?.position ?? 0,
  'ledger.position.last': events[events.length - 1]?.position ?? 0,
});

const eventAttributes = (event: RecordedEvent) => ({
  'ledger.event_type': event.type,
  'ledger.position': event.position,
  'ledger.correlation_id': event.metadata.correlationId,
});

/**
 * A projection with a span per batch applied (`project <name>`). A batch
 * mixes events of many requests, so the span starts a trace of its own and
 * links to the appends of its events (the first 32 distinct).
 */
export function tracedProcessor(processor: Processor): Processor {
  return {
    name: processor.name,
    version: processor.version,
    handles: processor.handles,
    ...(processor.filter ? { filter: processor.filter } : {}),
    setup: (tx) => processor.setup(tx),
    reset: (tx) => processor.reset(tx),
    apply: (events, tx) =>
      inSpan(
        `project ${processor.name}`,
        { root: true, links: eventSpanLinks(events), attributes: { 'ledger.processor': processor.name, ...batchAttributes(events) } },
        () => processor.apply(events, tx),
      ),
  };
}

/**
 * A reactor with a consumer span per event it acts on (`react <name>`), a
 * child of the event's append: the outside call it makes (Nova, Placement)
 * is part of the request's trace and carries it on. A batch (the Kafka
 * relay's) gets one span that links to its events' appends instead.
 */
export function tracedReactor(reactor: Reactor): Reactor {
  const attributes = { 'ledger.reactor': reactor.name };
  const reactBatch = reactor.reactBatch?.bind(reactor);
  return {
    name: reactor.name,
    handles: reactor.handles,
    ...(reactor.filter ? { filter: reactor.filter } : {}),
    ...(reactor.startAt ? { startAt: reactor.startAt } : {}),
    ...(reactor.batchSize ? { batchSize: reactor.batchSize } : {}),
    react: (event, context) =>
      inSpan(
        `react ${reactor.name}`,
        { kind: SpanKind.CONSUMER, attributes: { ...attributes, ...eventAttributes(event), 'ledger.attempt': context.attempt } },
        () => reactor.react(event, context),
        eventTraceContext(event),
      ),
    ...(reactBatch
      ? {
          reactBatch: (events: readonly RecordedEvent[], context: ReactContext) =>
            inSpan(
              `react ${reactor.name}`,
              { kind: SpanKind.CONSUMER, root: true, links: eventSpanLinks(events), attributes: { ...attributes, ...batchAttributes(events), 'ledger.attempt': context.attempt } },
              () => reactBatch(events, context),
            ),
        }
      : {}),
  };
}

/**
 * The advance an event brings to a workflow instance, in a consumer span
 * (`workflow <name>`) in the event's trace: the commands the workflow sends
 * then, and their appends, are its children. (An advance started in a
 * request, as a bind's, is already in the request's span.)
 */
export const tracedWorkflowAdvance: AroundEventAdvance = (workflow, event, advance) =>
  inSpan(`workflow ${workflow}`, { kind: SpanKind.CONSUMER, attributes: { 'ledger.workflow': workflow, ...eventAttributes(event) } }, advance, eventTraceContext(event));
