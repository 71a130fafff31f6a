import { ConfigError } from './config-error';
import { type Env, nonEmpty, urlSetting } from './env-values';

/** OpenTelemetry's sampler names (OTEL_TRACES_SAMPLER) that the ledger accepts. */
export const TRACE_SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
export type TraceSampler = (typeof TRACE_SAMPLERS)[number];

/**
 * Where the ledger sends its spans (docs/operations.md, "Traces"), read from
 * OpenTelemetry's standard variables. Absent (no endpoint set): tracing is
 * off and no tracing code is loaded or run.
 */
export interface TracingConfig {
  /**
   * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, else
   * OTEL_EXPORTER_OTLP_ENDPOINT with `/v1/traces` appended: the OTLP/HTTP
   * receiver (a collector) the spans are posted to, as JSON.
   */
  readonly endpoint: string;
  /** OTEL_SERVICE_NAME (accelerator-ledger): the `service.name` resource attribute. */
  readonly serviceName: string;
  /** OTEL_TRACES_SAMPLER (parentbased_always_on): which traces are recorded. */
  readonly sampler: TraceSampler;
  /** OTEL_TRACES_SAMPLER_ARG (1): the share of traces kept by the `traceidratio` samplers, 0 to 1. */
  readonly samplerRatio: number;
}

export function loadTracingConfig(env: Env): TracingConfig | undefined {
  const tracesEndpoint = urlSetting(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const baseEndpoint = urlSetting(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const endpoint = tracesEndpoint ?? (baseEndpoint === undefined ? undefined : `${baseEndpoint}/v1/traces`);
  if (endpoint === undefined) return undefined;
  const sampler = nonEmpty(env.OTEL_TRACES_SAMPLER) ?? 'parentbased_always_on';
  if (!(TRACE_SAMPLERS as readonly string[]).includes(sampler)) {
    throw new ConfigError('OTEL_TRACES_SAMPLER', `"${sampler}" is not one of ${TRACE_SAMPLERS.join(', ')}`);
  }
  const ratioText = nonEmpty(env.OTEL_TRACES_SAMPLER_ARG);
  const samplerRatio = ratioText === undefined ? 1 : Number(ratioText);
  if (!/^\d*\.?\d+$/.test(ratioText ?? '1') || samplerRatio > 1) {
    throw new ConfigError('OTEL_TRACES_SAMPLER_ARG', `"${ratioText}" is not a number between 0 and 1`);
  }
  return { endpoint, serviceName: nonEmpty(env.OTEL_SERVICE_NAME) ?? 'accelerator-ledger', sampler: sampler as TraceSampler, samplerRatio };
}
