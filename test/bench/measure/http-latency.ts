import type { BenchContext } from '../bench-context';
import type { Measurement } from '../bench-module';
import { type HttpCall, JsonClient } from '../http/json-client';
import type { LedgerServer } from '../http/ledger-server';
import { cpuBetween, type CpuReading, readCpu } from './cpu-usage';
import { sequentialLatencies } from './sequential-latency';
import { percentile } from './statistics';

export type ExpectedCall = HttpCall & { readonly status: number };

/**
 * `<name>_p50_ms` and `<name>_p99_ms` of sequential requests on one
 * keep-alive connection, a fifth of the samples first as warm-up; every
 * status is checked, and the ledger's CPU per request is reported.
 */
export async function measureHttpLatency(context: BenchContext, ledger: LedgerServer, name: string, callFor: (n: number) => ExpectedCall): Promise<Measurement[]> {
  const client = new JsonClient(ledger.url, 1);
  const samples = context.sizes.httpSamples;
  const warmup = Math.ceil(samples / 5);
  let started: CpuReading | undefined;
  try {
    const latencies = await sequentialLatencies(warmup, samples, async (n) => {
      if (n === warmup) started = readCpu(ledger.cpuSeconds);
      const call = callFor(n);
      await client.expect(call.status, call);
    });
    const cpu = cpuBetween(started as CpuReading, readCpu(ledger.cpuSeconds));
    if (client.connectionsOpened !== 1) throw new Error(`${name} used ${client.connectionsOpened} connections instead of one`);
    const [p50, p99] = [percentile(latencies, 50), percentile(latencies, 99)];
    context.progress(
      `${name} p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms (${samples} sequential requests on one connection);` +
        ` CPU per request: ledger ${((cpu.ledger * 1000) / samples).toFixed(3)} ms, bench ${((cpu.bench * 1000) / samples).toFixed(3)} ms`,
    );
    return [
      { name: `${name}_p50_ms`, value: p50 },
      { name: `${name}_p99_ms`, value: p99 },
    ];
  } finally {
    client.close();
  }
}
