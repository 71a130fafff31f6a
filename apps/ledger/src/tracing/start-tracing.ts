import { diag, DiagLogLevel } from '@opentelemetry/api';
import type { LedgerRole, TraceSampler, TracingConfig } from '@ledger/config';
import type { Sampler } from '@opentelemetry/sdk-trace-node';
import { ledgerVersion } from './ledger-version';

/** The running SDK: `shutdown` exports the spans still buffered, then stops. */
export interface TracingSdk {
  shutdown(): Promise<void>;
}

export interface TracedProcess {
  /** LEDGER_INSTANCE_ID: `service.instance.id`. */
  readonly instanceId: string;
  /** LEDGER_ROLES: `ledger.roles`. */
  readonly roles: readonly LedgerRole[];
}

/**
 * Registers OpenTelemetry's Node SDK as the API's global tracer provider:
 * async-local context, W3C trace-context propagation, spans batched to the
 * OTLP/HTTP endpoint as JSON; the SDK's own errors (an export that failed)
 * go to `warn`. The SDK and the exporter are imported here, on first use,
 * so a ledger without an endpoint never loads them.
 */
export async function startTracing(config: TracingConfig, identity: TracedProcess, warn: (message: string) => void): Promise<TracingSdk> {
  // OpenTelemetry reports its own failures (a collector down, spans dropped) only to a diagnostic logger: errors become warnings in the log.
  const report = (message: string, ...details: unknown[]) => warn([readable(message), ...details.map(readable)].join(' '));
  diag.setLogger({ error: report, warn: () => undefined, info: () => undefined, debug: () => undefined, verbose: () => undefined }, DiagLogLevel.ERROR);
  const sdk = await import('@opentelemetry/sdk-trace-node');
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
  const { defaultResource, resourceFromAttributes } = await import('@opentelemetry/resources');
  const provider = new sdk.NodeTracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({
        'service.name': config.serviceName,
        'service.version': ledgerVersion(),
        'service.instance.id': identity.instanceId,
        'ledger.roles': [...identity.roles],
      }),
    ),
    sampler: sampler(sdk, config.sampler, config.samplerRatio),
    spanProcessors: [new sdk.BatchSpanProcessor(new OTLPTraceExporter({ url: config.endpoint }))],
  });
  provider.register();
  return { shutdown: () => provider.shutdown() };
}

/** OTEL_TRACES_SAMPLER's sampler: its root part, inside a parent-based one for the `parentbased_` names (the parent's decision wins). */
function sampler(sdk: typeof import('@opentelemetry/sdk-trace-node'), kind: TraceSampler, ratio: number): Sampler {
  const rootKind = kind.replace(/^parentbased_/, '');
  const root = rootKind === 'always_on' ? new sdk.AlwaysOnSampler() : rootKind === 'always_off' ? new sdk.AlwaysOffSampler() : new sdk.TraceIdRatioBasedSampler(ratio);
  return kind.startsWith('parentbased_') ? new sdk.ParentBasedSampler({ root }) : root;
}

/** The SDK hands its errors over as JSON of the error object: its message is what a reader needs. */
function readable(detail: unknown): string {
  if (detail instanceof Error) return detail.message;
  const text = String(detail);
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    return typeof parsed?.message === 'string' ? parsed.message : text;
  } catch {
    return text;
  }
}
