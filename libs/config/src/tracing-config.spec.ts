import { ConfigError } from './config-error';
import { loadTracingConfig } from './tracing-config';

describe('loadTracingConfig', () => {
  it('is off unless an OTLP endpoint is set', () => {
    expect(loadTracingConfig({})).toBeUndefined();
    expect(loadTracingConfig({ OTEL_SERVICE_NAME: 'ledger-a', OTEL_TRACES_SAMPLER: 'nonsense' })).toBeUndefined();
  });

  it('posts to <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces, or to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given', () => {
    expect(loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({
      endpoint: 'http://collector:4318/v1/traces',
      serviceName: 'accelerator-ledger',
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
    });
    expect(
      loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/otlp/spans' })?.endpoint,
    ).toBe('http://traces:4318/otlp/spans');
  });

  it('takes the service name and a sampler with its ratio', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SERVICE_NAME: 'ledger-eu', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' };
    expect(loadTracingConfig(env)).toMatchObject({ serviceName: 'ledger-eu', sampler: 'parentbased_traceidratio', samplerRatio: 0.25 });
  });

  it.each([
    ['OTEL_EXPORTER_OTLP_ENDPOINT', { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }],
    ['OTEL_TRACES_SAMPLER', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_SAMPLER: 'jaeger_remote' }],
    ['OTEL_TRACES_SAMPLER_ARG', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_SAMPLER_ARG: '1.5' }],
    ['OTEL_TRACES_SAMPLER_ARG', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_SAMPLER_ARG: 'half' }],
  ])('stops start-up on an invalid %s', (name, env) => {
    expect(() => loadTracingConfig(env)).toThrow(ConfigError);
    expect(() => loadTracingConfig(env)).toThrow(name);
  });
});
