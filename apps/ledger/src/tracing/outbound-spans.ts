import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { OutboundWrapper } from '@ledger/kernel';
import { inSpan } from './ledger-tracer';

/**
 * A client span per request to Placement or Nova (`<METHOD> <Service>`),
 * whose W3C `traceparent` goes with the request, so the service's own
 * tracing continues the trace. Installed with wrapOutboundRequests while the
 * ledger traces. Only inside a trace (a request's, a reactor's): the
 * Placement reconciler's periodic compare, every few seconds, would
 * otherwise start a trace per call it makes.
 */
export const outboundSpans: OutboundWrapper = (request, send) => {
  if (trace.getActiveSpan() === undefined) return send({});
  const attributes = { 'http.request.method': request.method, 'url.full': request.url, 'server.address': new URL(request.url).hostname, 'ledger.service': request.service };
  return inSpan(`${request.method} ${request.service}`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    const headers: Record<string, string> = {};
    propagation.inject(context.active(), headers);
    const response = await send(headers);
    span.setAttribute('http.response.status_code', response.status);
    // Client spans fail on 4xx too: the ledger's request was refused.
    if (response.status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
    return response;
  });
};
