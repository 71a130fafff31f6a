import { type Context, context, type Span, type SpanOptions, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * The ledger's tracer. Until `startTracing` registers the SDK (only with an
 * OTLP endpoint set), OpenTelemetry's API hands out its no-op tracer; the
 * tracing decorators are not even installed then (tracing.module.ts).
 */
export const ledgerTracer = trace.getTracer('accelerator-ledger');

/**
 * Runs `work` in a new span made active for it (so spans started inside are
 * its children), and ends the span when `work` settles. A throw marks the
 * span failed, with the error's class as `error.type`, and is rethrown.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>, parent: Context = context.active()): Promise<T> {
  return ledgerTracer.startActiveSpan(name, options, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Marks a span failed by `error` (status ERROR, `error.type`, the exception as an event). */
export function failSpan(span: Span, error: unknown): void {
  const failure = error instanceof Error ? error : new Error(String(error));
  span.recordException(failure);
  span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
  span.setAttribute('error.type', failure.constructor.name);
}
