import type { EventStoreObserver } from '@ledger/eventstore';
import { LedgerMetrics } from '../../../apps/ledger/src/metrics/ledger-metrics';
import { parsePrometheusText, sampleSum } from '../../support/prometheus-text';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { reportFleet } from '../fixtures/cyborg-v2-fleet';
import { ADMIN, measureNovaFlows, type NovaFlowClients, prepareFlow64Clients } from '../fixtures/cyborg-v2-flow';
import { JsonClient } from '../http/json-client';
import { type LedgerServer, startLedgerServer } from '../http/ledger-server';
import { bestWindow } from '../measure/closed-loop';
import { measureHttpLatency } from '../measure/http-latency';
import { alternatePairs, median, medianOverheadPct, type RunPair } from '../measure/paired-runs';
import { appendClosedLoop } from './append-concurrency.bench';

const SCRAPE = 'metrics_scrape_ms';
const SCRAPE_P99 = 'metrics_scrape_p99_ms';
const OVERHEAD = 'metrics_overhead_pct';
const OVERHEAD_CPU = 'metrics_overhead_cpu_pct';
const APPEND_OVERHEAD = 'metrics_append_64_overhead_pct';
const FLOW_SHARE = 'metrics_flow_cpu_share_pct';
const APPEND_WRITERS = 64;

/**
 * The cost of the Prometheus metrics (docs/operations.md, Metrics), against
 * compiled ledger processes in their embedded setup (the sqlite pass only).
 * metrics_scrape_ms: the p50 of GET /metrics with sizes.metricsHosts hosts
 * registered (10,000; the target is under 20 ms), sequential on one
 * connection. metrics_overhead_pct: v2_flow_64 on a ledger with metrics on
 * against one with LEDGER_METRICS=false, in the same run: after an untimed
 * run on each, FLOW_PAIRS pairs of runs (measure/paired-runs.ts: the order
 * alternates, and the median pair's (off − on) / off is kept, in %).
 * metrics_overhead_cpu_pct: the same runs' ledger CPU per flow, (on − off)
 * / off: steadier than throughput on a shared machine, where other work
 * slows a run's flows but not the CPU each one costs.
 * metrics_flow_cpu_share_pct: the metrics' own CPU per flow, measured
 * directly (flowCpuShare), against the ledger's.
 * metrics_append_64_overhead_pct (every store): append_64 on a store that
 * reports to the ledger's metrics against one that reports to nothing, in
 * APPEND_PAIRS pairs the same way.
 */
export const metricsBench: BenchModule = {
  records: [
    { name: SCRAPE, unit: 'ms', min: 0 },
    { name: SCRAPE_P99, unit: 'ms', min: 0 },
    { name: OVERHEAD, unit: '%', digits: 1 },
    { name: OVERHEAD_CPU, unit: '%', digits: 1 },
    { name: APPEND_OVERHEAD, unit: '%', digits: 1 },
    { name: FLOW_SHARE, unit: '%', digits: 2, min: 0, max: 100 },
  ],
  async run(context, wanted) {
    const results: Measurement[] = [];
    if (wanted.has(APPEND_OVERHEAD)) results.push(await measureAppendOverhead(context));
    if (context.target.name !== 'sqlite') {
      context.progress('metrics_* over HTTP: skipped; the ledger process is measured in its embedded setup, on the sqlite pass');
      return results;
    }
    if (wanted.has(SCRAPE) || wanted.has(SCRAPE_P99)) results.push(...(await measureScrape(context)));
    if (wanted.has(OVERHEAD) || wanted.has(OVERHEAD_CPU) || wanted.has(FLOW_SHARE)) results.push(...(await measureOverhead(context)));
    return results;
  },
};

async function measureScrape(context: BenchContext): Promise<Measurement[]> {
  const ledger = await startLedgerServer(context.progress);
  try {
    const admin = ledger.token(ADMIN);
    const setup = new JsonClient(ledger.url, 16);
    const head = await reportFleet(ledger, setup, context.sizes.metricsHosts);
    // The gauges read the read models: wait until they hold the whole fleet.
    await setup.expect(200, { method: 'GET', path: '/api/v1/hosts?limit=1', token: admin, headers: { 'x-ledger-min-position': String(head) } });
    setup.close();
    context.progress(`metrics: ledger pid ${ledger.pid}, ${context.sizes.metricsHosts} hosts reported (head ${head})`);
    const [p50, p99] = await ledger.profiled('metrics_scrape', () =>
      measureHttpLatency(context, ledger, 'metrics_scrape', () => ({ status: 200, method: 'GET', path: '/metrics', token: admin })),
    );
    return [
      { name: SCRAPE, value: p50.value, notes: `p50 with ${context.sizes.metricsHosts} hosts registered` },
      { name: SCRAPE_P99, value: p99.value },
    ];
  } finally {
    await ledger.stop();
  }
}

/**
 * The flows' hosts report once and never heartbeat; the runs outlast the
 * default 3 × 15 s after which such a host's agent is lost (and its devices
 * bind no more), so both ledgers assume hour-long intervals.
 */
const QUIET_AGENTS = { LEDGER_AGENT_HEARTBEAT_SECONDS: '3600' };
/** Pairs of v2_flow_64 runs (about 20 s each) and of append_64 runs (about 5 s each). */
const FLOW_PAIRS = 3;
const APPEND_PAIRS = 5;

async function measureOverhead(context: BenchContext): Promise<Measurement[]> {
  const on = await flowLedger(context, QUIET_AGENTS);
  try {
    const off = await flowLedger(context, { ...QUIET_AGENTS, LEDGER_METRICS: 'false' });
    try {
      const run = async ({ ledger, flows }: FlowLedger) => {
        const [rate, cpu] = await measureNovaFlows(context, ledger, 'v2_flow_64', flows);
        return { rate: rate.value, cpuMs: cpu.value };
      };
      // One untimed run each first: the flows' code is still being optimised well past the closed loop's warm-up.
      await run(on);
      await run(off);
      const pairs = await alternatePairs(FLOW_PAIRS, (metrics) => run(metrics ? on : off));
      const overhead = {
        name: OVERHEAD,
        value: medianOverheadPct(pairs, (r) => r.rate, 'rate'),
        notes: `v2_flow_64 flows/s (on/off) ${describePairs(pairs, (r) => r.rate, 0)}`,
      };
      const overheadCpu = {
        name: OVERHEAD_CPU,
        value: medianOverheadPct(pairs, (r) => r.cpuMs, 'cost'),
        notes: `ledger CPU ms per flow (on/off) ${describePairs(pairs, (r) => r.cpuMs, 3)}`,
      };
      const share = await flowCpuShare(on, median(pairs.map((pair) => pair.on.cpuMs)));
      for (const { name, value, notes } of [overhead, overheadCpu, share]) context.progress(`${name} ${value.toFixed(2)}% (${notes})`);
      return [overhead, overheadCpu, share];
    } finally {
      await off.ledger.stop();
    }
  } finally {
    await on.ledger.stop();
  }
}

async function measureAppendOverhead(context: BenchContext): Promise<Measurement> {
  const metrics = new LedgerMetrics();
  let runs = 0;
  const pairs = await alternatePairs(APPEND_PAIRS, async (on) => {
    const best = bestWindow(await appendClosedLoop(context, APPEND_WRITERS, `metrics-append-${++runs}`, on ? metrics.eventStore : undefined));
    return best.operations / best.seconds;
  });
  const value = medianOverheadPct(pairs, (rate) => rate, 'rate');
  const notes = `append_64 events/s (on/off) ${describePairs(pairs, (rate) => rate, 0)}`;
  context.progress(`${APPEND_OVERHEAD} ${value.toFixed(1)}% (${notes})`);
  return { name: APPEND_OVERHEAD, value, notes };
}

/**
 * The metrics' own CPU per flow, against the ledger's CPU per flow, in %:
 * how many observations a flow makes (read from the ledger's /metrics after
 * the runs: requests, appends, group commits, processor batches, per
 * `POST /v2/accelerator_requests`), times what each costs (timed here, on a
 * LedgerMetrics of the bench's own, 200,000 calls each). Measured directly,
 * it does not drown in the noise of a shared machine as the difference of
 * two throughputs does (as keystone_cached_validation_ms is, for the same reason).
 */
async function flowCpuShare({ ledger }: FlowLedger, ledgerCpuMsPerFlow: number): Promise<Measurement> {
  const client = new JsonClient(ledger.url, 1);
  const reply = await client.expect(200, { method: 'GET', path: '/metrics', token: ledger.token(ADMIN) });
  client.close();
  const samples = parsePrometheusText(reply.text);
  const sum = (name: string, labels: Record<string, string> = {}) => sampleSum(samples, name, labels);
  const flows = sum('ledger_http_requests_total', { method: 'POST', route: '/v2/accelerator_requests', status: '201' });
  const perFlow = {
    requests: sum('ledger_http_requests_total') / flows,
    appends: sum('ledger_eventstore_append_duration_seconds_count') / flows,
    commits: sum('ledger_eventstore_commit_appends_count') / flows,
    batches: sum('ledger_processor_batches_total') / flows,
  };
  const metrics = new LedgerMetrics();
  const costNs = {
    requests: nanosecondsPerCall((n) => metrics.requestAnswered('PATCH', '/v2/accelerator_requests', 202 + (n & 1), 0.004)),
    appends: nanosecondsPerCall(() => metrics.eventStore.appendSettled('appended', 0.002)),
    commits: nanosecondsPerCall((n) => metrics.eventStore.commitFinished(1 + (n & 63), 0.002)),
    batches: nanosecondsPerCall((n) => metrics.processors.batchProcessed(n & 1 ? 'inventory' : 'reactor:placement-reconciler', 3)),
  };
  const metricsNsPerFlow = (Object.keys(perFlow) as (keyof typeof perFlow)[]).reduce((total, key) => total + perFlow[key] * costNs[key], 0);
  const value = (metricsNsPerFlow / 1e6 / ledgerCpuMsPerFlow) * 100;
  const describe = (Object.keys(perFlow) as (keyof typeof perFlow)[]).map((key) => `${perFlow[key].toFixed(1)} ${key} × ${costNs[key].toFixed(0)} ns`).join(' + ');
  return { name: FLOW_SHARE, value, notes: `per flow ${describe} = ${(metricsNsPerFlow / 1000).toFixed(1)} µs of ${ledgerCpuMsPerFlow.toFixed(3)} ms` };
}

/** Mean time of one call, over 200,000 after 20,000 untimed. */
function nanosecondsPerCall(call: (n: number) => void): number {
  const calls = 200_000;
  for (let n = 0; n < calls / 10; n++) call(n);
  const started = process.hrtime.bigint();
  for (let n = 0; n < calls; n++) call(n);
  return Number(process.hrtime.bigint() - started) / calls;
}

function describePairs<T>(pairs: readonly RunPair<T>[], value: (run: T) => number, digits: number): string {
  return pairs.map(({ on, off }) => `${value(on).toFixed(digits)}/${value(off).toFixed(digits)}`).join(', ');
}

interface FlowLedger {
  readonly ledger: LedgerServer;
  readonly flows: NovaFlowClients;
}

/** A ledger with `env`, its FPGA fleet reported and the flows' device profile created, as for v2_flow_64. */
async function flowLedger(context: BenchContext, env: Record<string, string>): Promise<FlowLedger> {
  const ledger = await startLedgerServer(context.progress, env);
  try {
    return { ledger, flows: await prepareFlow64Clients(ledger) };
  } catch (error) {
    await ledger.stop();
    throw error;
  }
}
