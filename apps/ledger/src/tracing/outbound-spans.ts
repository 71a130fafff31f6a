import { context, propagation, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { OutboundWrapper } from '@ledger/kernel';
import { inSpan } from './ledger-tracer';

/**
 * A client span per request to Placement or Nova (`<METHOD> <Service>`),
 * whose W3C `traceparent` goes with the request, so the service's own
 * tracing continues the trace. Installed with wrapOutboundRequests while the
 * ledger traces.
 */
export const outboundSpans: OutboundWrapper = (request, send) =>
  inSpan(
    `${request.method} ${request.service}`,
    {
      kind: SpanKind.CLIENT,
      attributes: { 'http.request.method': request.method, 'url.full': request.url, 'server.address': new URL(request.url).hostname, 'ledger.service': request.service },
    },
    async (span) => {
      const headers: Record<string, string> = {};
      propagation.inject(context.active(), headers);
      const response = await send(headers);
      span.setAttribute('http.response.status_code', response.status);
      // Client spans fail on 4xx too: the ledger's request was refused.
      if (response.status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
      return response;
    },
  );

