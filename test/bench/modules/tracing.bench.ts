import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { prepareFlow64 } from '../fixtures/cyborg-v2-flow';
import { startLedgerServer } from '../http/ledger-server';

/** Off, on, three times over: each mode's best run counts, so a slow spell on the shared VM hurts neither mode alone. */
const PAIRS = 3;
type Mode = 'off' | 'on';
const MODES: readonly Mode[] = Array.from({ length: PAIRS }, () => ['off', 'on'] as const).flat();

interface FlowRun {
  readonly flowsPerSecond: number;
  readonly cpuMsPerFlow: number;
}

/**
 * What exporting traces costs: `v2_flow_64`'s flows (cyborg-v2.bench.ts)
 * against a ledger process without an OTLP endpoint and one exporting every
 * span (the default sampler) to a local receiver, alternately, in the same
 * run. The receiver reads and drops the posts, so the bench's CPU stays the
 * load generator's.
 */
export const tracingBench: BenchModule = {
  records: [
    { name: 'tracing_on_overhead_pct', unit: '%', digits: 1 },
    { name: 'tracing_on_cpu_overhead_pct', unit: '%', digits: 1 },
  ],
  async run(context, wanted) {
    if (context.target.name !== 'sqlite') {
      context.progress('tracing_*: skipped; the ledger process is measured in its embedded setup, on the sqlite pass');
      return [];
    }
    if (!wanted.has('tracing_on_overhead_pct') && !wanted.has('tracing_on_cpu_overhead_pct')) return [];
    const receiver = await startDrainingReceiver();
    try {
      const best: Partial<Record<Mode, FlowRun>> = {};
      for (const mode of MODES) {
        const run = await measureFlows(context, `tracing_${mode}`, mode === 'on' ? { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } : {});
        context.progress(`tracing ${mode}: ${Math.round(run.flowsPerSecond)} flows/s, ledger CPU ${run.cpuMsPerFlow.toFixed(3)} ms/flow`);
        const previous = best[mode];
        best[mode] = { flowsPerSecond: Math.max(run.flowsPerSecond, previous?.flowsPerSecond ?? 0), cpuMsPerFlow: Math.min(run.cpuMsPerFlow, previous?.cpuMsPerFlow ?? Infinity) };
      }
      if (receiver.posts() === 0) throw new Error('tracing on: the ledger exported no spans to the receiver');
      const off = best.off as FlowRun;
      const on = best.on as FlowRun;
      context.progress(`tracing: the receiver took ${receiver.posts()} posts, ${(receiver.bytes() / 1_048_576).toFixed(1)} MiB of OTLP JSON`);
      const notes = `best of ${PAIRS} runs each: off ${Math.round(off.flowsPerSecond)} flows/s and ${off.cpuMsPerFlow.toFixed(3)} ms/flow, on ${Math.round(on.flowsPerSecond)} flows/s and ${on.cpuMsPerFlow.toFixed(3)} ms/flow`;
      const results: Measurement[] = [
        { name: 'tracing_on_overhead_pct', value: ((off.flowsPerSecond - on.flowsPerSecond) / off.flowsPerSecond) * 100, notes },
        { name: 'tracing_on_cpu_overhead_pct', value: ((on.cpuMsPerFlow - off.cpuMsPerFlow) / off.cpuMsPerFlow) * 100, notes },
      ];
      return results.filter((result) => wanted.has(result.name));
    } finally {
      await receiver.close();
    }
  },
};

/** A fresh ledger process with `env` and v2_flow_64's fleet, then its closed loop (profiled as `name` with LEDGER_BENCH_PROFILE_DIR). */
async function measureFlows(context: BenchContext, name: string, env: Record<string, string>): Promise<FlowRun> {
  const ledger = await startLedgerServer(context.progress, env);
  try {
    const flows = await prepareFlow64(context, ledger);
    return await ledger.profiled(name, () => flows.closedLoop());
  } finally {
    await ledger.stop();
  }
}

/** An OTLP/HTTP endpoint that answers 200 to every post and keeps only counts. */
async function startDrainingReceiver(): Promise<{ url: string; posts(): number; bytes(): number; close(): Promise<void> }> {
  let posts = 0;
  let bytes = 0;
  const server: Server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      posts += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    posts: () => posts,
    bytes: () => bytes,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
