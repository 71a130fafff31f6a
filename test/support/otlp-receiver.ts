import { createServer, type Server } from 'node:http';
import { eventually } from '@ledger/processing/testing';

/** A span as the receiver keeps it: OTLP's JSON fields, attributes flattened to plain values. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** Empty for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  readonly kind: number;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly links: readonly { readonly traceId: string; readonly spanId: string }[];
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
  /** The resource's attributes (service.name, …) of the process that sent it. */
  readonly resource: Readonly<Record<string, unknown>>;
}

/** An OTLP/HTTP trace receiver (a collector's `POST /v1/traces`, JSON encoding) that keeps what it is sent. */
export interface OtlpReceiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT: the exporter appends `/v1/traces`. */
  readonly url: string;
  readonly spans: ReceivedSpan[];
  /** Requests refused because they were not OTLP JSON on /v1/traces. */
  readonly refused: string[];
  /** Resolves with the spans once `predicate` holds for them (rejects after `timeoutMs`). */
  waitFor(predicate: (spans: readonly ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
}
type OtlpAttributes = { key: string; value: OtlpValue }[] | undefined;
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttributes;
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number };
}
interface OtlpTraces {
  resourceSpans?: { resource?: { attributes?: OtlpAttributes }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

const valueOf = (value: OtlpValue): unknown =>
  value.stringValue ?? value.boolValue ?? (value.intValue !== undefined ? Number(value.intValue) : undefined) ?? value.doubleValue ?? value.arrayValue?.values?.map(valueOf);

const attributesOf = (attributes: OtlpAttributes): Record<string, unknown> => Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, valueOf(value)]));

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const refused: string[] = [];
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces' || !request.headers['content-type']?.startsWith('application/json')) {
        refused.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
        response.writeHead(415).end();
        return;
      }
      const body = JSON.parse(text) as OtlpTraces;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        for (const span of (resourceSpans.scopeSpans ?? []).flatMap((scope) => scope.spans ?? [])) {
          spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
            statusCode: span.status?.code ?? 0,
            resource,
          });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    refused,
    async waitFor(predicate, timeoutMs = 15_000) {
      await eventually(() => predicate(spans), timeoutMs);
      return spans;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
