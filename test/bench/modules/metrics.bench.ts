import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { fpgaProfileCall, reportFleet, reportFpgaHosts } from '../fixtures/cyborg-v2-fleet';
import { ADMIN, FLOW_HOSTS, FLOW_PROFILE, measureNovaFlows, type NovaFlowClients, ownProjectTokens } from '../fixtures/cyborg-v2-flow';
import { JsonClient } from '../http/json-client';
import { type LedgerServer, startLedgerServer } from '../http/ledger-server';
import { measureHttpLatency } from '../measure/http-latency';

const SCRAPE = 'metrics_scrape_ms';
const SCRAPE_P99 = 'metrics_scrape_p99_ms';
const OVERHEAD = 'metrics_overhead_pct';
const OVERHEAD_CPU = 'metrics_overhead_cpu_pct';

/**
 * The cost of the Prometheus metrics (docs/operations.md, Metrics), against
 * compiled ledger processes in their embedded setup (the sqlite pass only).
 * metrics_scrape_ms: the p50 of GET /metrics with sizes.metricsHosts hosts
 * registered (10,000; the target is under 20 ms), sequential on one
 * connection. metrics_overhead_pct: v2_flow_64 on a ledger with metrics on
 * against one with LEDGER_METRICS=false, in the same run, measured on, off,
 * off, on so that a drift of the machine over the run weighs on both alike;
 * (off − on) / off of the means, in %. metrics_overhead_cpu_pct: the same
 * runs' ledger CPU per flow, (on − off) / off: steadier than throughput on
 * a shared machine, since other work slows both ledgers' flows but not the
 * CPU each flow costs.
 */
export const metricsBench: BenchModule = {
  records: [
    { name: SCRAPE, unit: 'ms' },
    { name: SCRAPE_P99, unit: 'ms' },
    { name: OVERHEAD, unit: '%', digits: 1 },
    { name: OVERHEAD_CPU, unit: '%', digits: 1 },
  ],
  async run(context, wanted) {
    if (context.target.name !== 'sqlite') {
      context.progress('metrics_*: skipped; the ledger process is measured in its embedded setup, on the sqlite pass');
      return [];
    }
    const results: Measurement[] = [];
    if (wanted.has(SCRAPE) || wanted.has(SCRAPE_P99)) results.push(...(await measureScrape(context)));
    if (wanted.has(OVERHEAD) || wanted.has(OVERHEAD_CPU)) results.push(...(await measureOverhead(context)));
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

async function measureOverhead(context: BenchContext): Promise<Measurement[]> {
  const on = await flowLedger(context, {});
  try {
    const off = await flowLedger(context, { LEDGER_METRICS: 'false' });
    try {
      const run = async ({ ledger, flows }: FlowLedger) => {
        const [rate, cpu] = await measureNovaFlows(context, ledger, 'v2_flow_64', flows);
        return { rate: rate.value, cpuMs: cpu.value };
      };
      const runs = [await run(on), await run(off), await run(off), await run(on)];
      const mean = (pick: (run: { rate: number; cpuMs: number }) => number, [a, b]: number[]) => (pick(runs[a]) + pick(runs[b])) / 2;
      const [rateOn, rateOff] = [mean((r) => r.rate, [0, 3]), mean((r) => r.rate, [1, 2])];
      const [cpuOn, cpuOff] = [mean((r) => r.cpuMs, [0, 3]), mean((r) => r.cpuMs, [1, 2])];
      const describe = (pick: (run: { rate: number; cpuMs: number }) => number, digits: number) =>
        `with metrics ${pick(runs[0]).toFixed(digits)}, ${pick(runs[3]).toFixed(digits)}; with LEDGER_METRICS=false ${pick(runs[1]).toFixed(digits)}, ${pick(runs[2]).toFixed(digits)}`;
      const overhead = { name: OVERHEAD, value: ((rateOff - rateOn) / rateOff) * 100, notes: `v2_flow_64 flows/s ${describe((r) => r.rate, 0)}` };
      const overheadCpu = { name: OVERHEAD_CPU, value: ((cpuOn - cpuOff) / cpuOff) * 100, notes: `ledger CPU ms per flow ${describe((r) => r.cpuMs, 3)}` };
      for (const { name, value, notes } of [overhead, overheadCpu]) context.progress(`${name} ${value.toFixed(1)}% (${notes})`);
      return [overhead, overheadCpu];
    } finally {
      await off.ledger.stop();
    }
  } finally {
    await on.ledger.stop();
  }
}

interface FlowLedger {
  readonly ledger: LedgerServer;
  readonly flows: NovaFlowClients;
}

/** A ledger with `env`, its FPGA fleet reported and the flows' device profile created, as for v2_flow_64. */
async function flowLedger(context: BenchContext, env: Record<string, string>): Promise<FlowLedger> {
  const ledger = await startLedgerServer(context.progress, env);
  try {
    const admin = ledger.token(ADMIN);
    const setup = new JsonClient(ledger.url, 16);
    const providers = await reportFpgaHosts(ledger, setup, admin, FLOW_HOSTS);
    await setup.expect(201, fpgaProfileCall(admin, FLOW_PROFILE));
    setup.close();
    return { ledger, flows: { tokens: ownProjectTokens(ledger), profile: FLOW_PROFILE, providers } };
  } catch (error) {
    await ledger.stop();
    throw error;
  }
}
