import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import type { AppendOptions, EventStore, NewEvent, RecordedEvent, StreamAppend } from '@ledger/eventstore';
import { InMemoryMessageBroker } from '@ledger/messaging/testing';
import type { Reactor } from '@ledger/processing';
import { inSpan } from './ledger-tracer';
import { outboundSpans } from './outbound-spans';
import { tracedEventStore } from './traced-event-store';
import { tracedReactor, tracedWorkflowAdvance } from './traced-processors';
import { tracedPublisher } from './traced-publisher';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const ACTOR = { user: 'nova', project: 'tenant-a', roles: ['member'] };
const spanNamed = (name: string) => exporter.getFinishedSpans().find((span) => span.name === name);

/** A store that keeps what it is asked to append, positions counting from 1. */
function recordingStore(): EventStore & { appended: NewEvent[] } {
  const appended: NewEvent[] = [];
  const append = async (stream: string, events: readonly NewEvent[], _options: AppendOptions) => {
    appended.push(...events);
    return { stream, version: appended.length, position: appended.length };
  };
  return {
    appended,
    kind: 'memory',
    append,
    appendMany: (appends: readonly StreamAppend[]) => Promise.all(appends.map(({ stream, events, expected }) => append(stream, events, { expected }))),
  } as unknown as EventStore & { appended: NewEvent[] };
}

const recorded = (position: number, traceparent?: string): RecordedEvent => ({
  id: `event-${position}`,
  type: 'allocation.ArqBound',
  stream: 'arq-1',
  version: position,
  position,
  recordedAt: '2026-11-27T09:00:00.000Z',
  data: {},
  metadata: { correlationId: `request-${position}`, causationId: null, actor: ACTOR, schemaVersion: 1, ...(traceparent ? { traceparent } : {}) },
  prevHash: '0'.repeat(64),
  hash: '1'.repeat(64),
});

describe('tracing decorators', () => {
  beforeAll(() => provider.register());
  afterEach(() => exporter.reset());
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it("appends under a span whose traceparent every appended event records, inside the caller's trace", async () => {
    const store = recordingStore();
    const event = { type: 'allocation.ArqBound', data: {}, metadata: { correlationId: 'request-1', causationId: null, actor: ACTOR, schemaVersion: 1 } };
    await inSpan('command BindArqsCommand', {}, () => tracedEventStore(store).append('arq-1', [event, event], { expected: 0 }));
    const command = spanNamed('command BindArqsCommand');
    const append = spanNamed('append arq');
    expect(append?.parentSpanContext?.spanId).toBe(command?.spanContext().spanId);
    expect(append?.attributes).toMatchObject({ 'ledger.stream': 'arq-1', 'ledger.events': 2, 'ledger.position': 2, 'ledger.correlation_id': 'request-1' });
    const traceparent = `00-${append?.spanContext().traceId}-${append?.spanContext().spanId}-01`;
    expect(store.appended.map((appended) => appended.metadata.traceparent)).toEqual([traceparent, traceparent]);
  });

  it('appends to several streams under one span naming their categories, whose traceparent every event records', async () => {
    const store = recordingStore();
    const event = { type: 'allocation.ArqBound', data: {}, metadata: { correlationId: 'request-2', causationId: null, actor: ACTOR, schemaVersion: 1 } };
    await tracedEventStore(store).appendMany([
      { stream: 'arq-1', events: [event], expected: 0 },
      { stream: 'device-1', events: [event], expected: 3 },
      { stream: 'arq-2', events: [event], expected: 0 },
    ]);
    const append = spanNamed('append arq,device');
    expect(append?.attributes).toMatchObject({ 'db.operation.name': 'appendMany', 'ledger.streams': ['arq-1', 'device-1', 'arq-2'], 'ledger.events': 3, 'ledger.position': 3, 'ledger.correlation_id': 'request-2' });
    const traceparent = `00-${append?.spanContext().traceId}-${append?.spanContext().spanId}-01`;
    expect(store.appended.map((appended) => appended.metadata.traceparent)).toEqual([traceparent, traceparent, traceparent]);
  });

  it("reacts to one event in its append's trace, and to a batch in a trace of its own linked to its events' appends", async () => {
    const reactor: Reactor = { name: 'relay', handles: [], react: async () => undefined, reactBatch: async () => undefined };
    const traced = tracedReactor(reactor);
    const append = (n: number) => `00-${String(n).repeat(32)}-${String(n).repeat(16)}-01`;
    const signal = new AbortController().signal;
    await traced.react(recorded(1, append(1)), { attempt: 1, signal });
    await traced.reactBatch?.([recorded(2, append(2)), recorded(3, append(2)), recorded(4, append(3)), recorded(5)], { attempt: 2, signal });
    const [single, batch] = exporter.getFinishedSpans();
    expect(single.spanContext().traceId).toBe('1'.repeat(32));
    expect(single.parentSpanContext?.spanId).toBe('1'.repeat(16));
    expect(single.attributes).toMatchObject({ 'ledger.reactor': 'relay', 'ledger.position': 1, 'ledger.correlation_id': 'request-1' });
    expect(batch.parentSpanContext).toBeUndefined();
    expect(batch.links.map((link) => link.context.spanId)).toEqual(['2'.repeat(16), '3'.repeat(16)]);
    expect(batch.attributes).toMatchObject({ 'ledger.events': 4, 'ledger.position.first': 2, 'ledger.position.last': 5, 'ledger.attempt': 2 });
  });

  it("advances a workflow on an event in the event's trace, the advance's appends its children", async () => {
    const store = tracedEventStore(recordingStore());
    const event = recorded(7, `00-${'7'.repeat(32)}-${'8'.repeat(16)}-01`);
    const newEvent = { type: 'workflow.InputRecorded', data: {}, metadata: event.metadata };
    await tracedWorkflowAdvance('provision', event, () => store.append('workflow-provision-1', [newEvent], { expected: 0 }));
    const advance = spanNamed('workflow provision');
    expect(advance?.spanContext().traceId).toBe('7'.repeat(32));
    expect(advance?.parentSpanContext?.spanId).toBe('8'.repeat(16));
    expect(advance?.attributes).toMatchObject({ 'ledger.workflow': 'provision', 'ledger.event_type': 'allocation.ArqBound', 'ledger.position': 7 });
    expect(spanNamed('append workflow')?.parentSpanContext?.spanId).toBe(advance?.spanContext().spanId);
  });

  it('calls Nova or Placement under a client span whose traceparent goes along, inside a trace only', async () => {
    const sent: Readonly<Record<string, string>>[] = [];
    const send = async (headers: Readonly<Record<string, string>>) => {
      sent.push(headers);
      return new Response(null, { status: 404 });
    };
    const request = { service: 'Placement', method: 'GET', url: 'http://placement:8778/resource_providers/rp-1' };
    await outboundSpans(request, send);
    await inSpan('react placement-reconciler', {}, () => outboundSpans(request, send));
    const call = spanNamed('GET Placement');
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['GET Placement', 'react placement-reconciler']);
    expect(call?.attributes).toMatchObject({ 'url.full': request.url, 'server.address': 'placement', 'http.response.status_code': 404 });
    expect(call?.status.code).toBe(2);
    expect(sent).toEqual([{}, { traceparent: `00-${call?.spanContext().traceId}-${call?.spanContext().spanId}-01` }]);
  });

  it('publishes to Kafka under a producer span whose traceparent every message carries beside its own headers', async () => {
    const broker = new InMemoryMessageBroker();
    const message = (key: string) => ({ topic: 'accelerator-ledger.allocation.v1', key, value: '{}', headers: { 'ledger-event-id': key } });
    await tracedPublisher(broker).publish([message('a'), message('b')]);
    const publish = spanNamed('publish accelerator-ledger.allocation.v1');
    expect(publish?.attributes).toMatchObject({ 'messaging.system': 'kafka', 'messaging.batch.message_count': 2 });
    const traceparent = `00-${publish?.spanContext().traceId}-${publish?.spanContext().spanId}-01`;
    expect(broker.published.map((published) => published.headers)).toEqual([
      { 'ledger-event-id': 'a', traceparent },
      { 'ledger-event-id': 'b', traceparent },
    ]);
  });
});
