import { context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { correlationIdOf } from '../http/request-ids';
import { failSpan, ledgerTracer } from './ledger-tracer';

/** Health probes: a load balancer's every few seconds would bury the traces worth reading. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz']);

/**
 * A server span per HTTP request (health probes aside), `<METHOD> <route template>` (the path
 * itself for an unmatched one), continuing the caller's trace when it sends
 * a W3C `traceparent` (Nova does, through its own tracing). The span is the
 * active context for the hooks and the handler; the answer says which trace it was in (`traceresponse`, W3C
 * Trace Context level 2), so a client can find it in the tracing backend.
 */
export function traceHttpRequests(fastify: FastifyInstance): void {
  const spans = new WeakMap<FastifyRequest, Span>();
  fastify.addHook('onRequest', (request, reply, done) => {
    if (UNTRACED_PATHS.has(request.url)) {
      done();
      return;
    }
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = ledgerTracer.startSpan(
      request.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'url.path': request.url.split('?', 1)[0],
          'url.scheme': 'http',
          'ledger.correlation_id': correlationIdOf(request),
          ...(request.headers['user-agent'] ? { 'user_agent.original': request.headers['user-agent'] } : {}),
        },
      },
      parent,
    );
    spans.set(request, span);
    const { traceId, spanId, traceFlags } = span.spanContext();
    reply.header('traceresponse', `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`);
    // The rest of the request runs in this context: Fastify carries it across the body's reading (its
    // content-type parser makes an AsyncResource inside it), into the handler.
    context.with(trace.setSpan(parent, span), done);
  });
  fastify.addHook('onError', (request, _reply, error, done) => {
    const span = spans.get(request);
    if (span) failSpan(span, error);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    endSpan(spans, request, reply.statusCode);
    done();
  });
  fastify.addHook('onRequestAbort', (request, done) => {
    spans.get(request)?.setAttribute('error.type', 'aborted');
    endSpan(spans, request, undefined);
    done();
  });
}

/** Ends the request's span once (an aborted request may still reach onResponse). */
function endSpan(spans: WeakMap<FastifyRequest, Span>, request: FastifyRequest, status: number | undefined): void {
  const span = spans.get(request);
  if (!span) return;
  spans.delete(request);
  const route = request.routeOptions.url;
  if (route !== undefined) {
    span.updateName(`${request.method} ${route}`);
    span.setAttribute('http.route', route);
  }
  if (status !== undefined) {
    span.setAttribute('http.response.status_code', status);
    // Server spans fail on 5xx only: a 4xx is the client's mistake, answered correctly (semantic conventions).
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}
