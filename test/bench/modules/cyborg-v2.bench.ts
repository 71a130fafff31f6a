import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { createArqs, type FpgaProvider, fpgaProfileCall, reportFpgaHosts } from '../fixtures/cyborg-v2-fleet';
import { assignProviders, runNovaFlow } from '../fixtures/cyborg-v2-flow';
import { JsonClient } from '../http/json-client';
import { type LedgerServer, startLedgerServer } from '../http/ledger-server';
import { bestWindow, runClosedLoop, windowRates } from '../measure/closed-loop';
import { cpuBetween, type CpuReading, readCpu } from '../measure/cpu-usage';
import { type ExpectedCall, measureHttpLatency } from '../measure/http-latency';
import { percentile } from '../measure/statistics';

/** Hosts reported: 48 FPGAs with 2–4 VFs each (144 handles) for 64 clients that each hold at most one. */
const HOSTS = 48;
/** Requests present in the caller's project while reads and profile creates are measured. */
const PRESENT_ARQS = 100;
const FLOW_CLIENTS = 64;
const PROFILE = 'fpga-dp';
const TENANT = 'tenant-a';
const ADMIN = { user: 'admin', project: 'admin', roles: ['admin' as const] };
/** Nova: the tenant's token plus its own service role. */
const novaOf = (project: string) => ({ user: 'nova', project, roles: ['member' as const, 'service' as const] });

const LATENCIES = ['v2_list_arqs', 'v2_get_arq', 'v2_create_profile'] as const;
const FLOWS = ['v2_flow_64', 'v2_flow_64_one_project'] as const;

/**
 * Cyborg's v2 API over real HTTP against a compiled ledger process on a
 * fresh data directory, in its embedded setup (so it runs on the `sqlite`
 * pass only). Latencies: sequential requests on one keep-alive connection.
 * Flows: 64 clients in a closed loop, each running Nova's create → bind →
 * delete by instance back to back, for its own project (v2_flow_64) or all
 * for one project (v2_flow_64_one_project). Every status is checked.
 */
export const cyborgV2Bench: BenchModule = {
  records: [
    ...LATENCIES.flatMap((name) => [
      { name: `${name}_p50_ms`, unit: 'ms' },
      { name: `${name}_p99_ms`, unit: 'ms' },
    ]),
    { name: 'v2_flow_64', unit: 'flows/s' },
    { name: 'v2_flow_64_cpu_ms', unit: 'ms' },
    { name: 'v2_flow_64_one_project', unit: 'flows/s' },
  ],
  async run(context, wanted) {
    if (context.target.name !== 'sqlite') {
      context.progress('v2_*: skipped; the ledger process is measured in its embedded setup, on the sqlite pass');
      return [];
    }
    const ledger = await startLedgerServer(context.progress);
    try {
      return await measureCyborgV2(context, wanted, ledger);
    } finally {
      await ledger.stop();
    }
  },
};

async function measureCyborgV2(context: BenchContext, wanted: ReadonlySet<string>, ledger: LedgerServer): Promise<Measurement[]> {
  const admin = ledger.token(ADMIN);
  const nova = ledger.token(novaOf(TENANT));
  const setup = new JsonClient(ledger.url, 16);
  const providers = await prepareFlowFleet(ledger, setup, admin);
  const arqs = await createArqs(setup, nova, PROFILE, PRESENT_ARQS);
  setup.close();
  context.progress(`v2: ledger pid ${ledger.pid}, ${HOSTS} hosts reported, ${arqs.length} requests in ${TENANT}`);

  const calls: Record<(typeof LATENCIES)[number], (n: number) => ExpectedCall> = {
    v2_list_arqs: () => ({ status: 200, method: 'GET', path: '/v2/accelerator_requests', token: nova }),
    v2_get_arq: (n) => ({ status: 200, method: 'GET', path: `/v2/accelerator_requests/${arqs[n % arqs.length]}`, token: nova }),
    v2_create_profile: (n) => ({ status: 201, ...fpgaProfileCall(admin, `bench-dp-${n}`) }),
  };
  const results: Measurement[] = [];
  for (const name of LATENCIES) {
    if (!wanted.has(`${name}_p50_ms`) && !wanted.has(`${name}_p99_ms`)) continue;
    results.push(...(await ledger.profiled(name, () => measureHttpLatency(context, ledger, name, calls[name]))));
  }
  for (const name of FLOWS) {
    if (!wanted.has(name) && !(name === 'v2_flow_64' && wanted.has('v2_flow_64_cpu_ms'))) continue;
    const tokens = name === 'v2_flow_64' ? tenantTokens(ledger) : Array.from({ length: FLOW_CLIENTS }, () => nova);
    results.push(...(await ledger.profiled(name, () => measureFlows(context, ledger, name, tokens, providers))));
  }
  return results;
}

/**
 * FLOW_CLIENTS clients in a closed loop (sizes.flowTiming), client i with
 * tokens[i] on its own FPGA provider. The first failed flow stops every
 * client and fails the benchmark. CPU is read when the windows start and
 * end, so the ledger's CPU per flow covers exactly the counted flows' span.
 */
async function measureFlows(
  context: BenchContext,
  ledger: LedgerServer,
  name: (typeof FLOWS)[number],
  tokens: readonly string[],
  providers: readonly FpgaProvider[],
): Promise<Measurement[]> {
  const assigned = assignProviders(FLOW_CLIENTS, providers);
  const client = new JsonClient(ledger.url, FLOW_CLIENTS);
  const timing = context.sizes.flowTiming;
  const measuredSeconds = (timing.rounds * timing.measureMs) / 1000;
  let failure: Error | undefined;
  let windowsStart: CpuReading | undefined;
  let windowsEnd: CpuReading | undefined;
  const timers = [
    setTimeout(() => (windowsStart = readCpu(ledger.cpuSeconds)), timing.warmupMs),
    setTimeout(() => (windowsEnd = readCpu(ledger.cpuSeconds)), timing.warmupMs + measuredSeconds * 1000),
  ];
  try {
    const windows = await runClosedLoop(FLOW_CLIENTS, timing, async (index) => {
      if (failure) throw failure;
      await runNovaFlow(client, tokens[index], PROFILE, assigned[index]).catch((error: Error) => {
        failure ??= error;
        throw error;
      });
    });
    const best = bestWindow(windows);
    if (best.operations === 0) throw new Error(`${name}: no flow completed within a ${timing.measureMs} ms window`);
    const value = best.operations / best.seconds;
    const flows = windows.reduce((sum, window) => sum + window.operations, 0);
    const cpu = cpuBetween(windowsStart as CpuReading, windowsEnd ?? readCpu(ledger.cpuSeconds));
    const cpuMsPerFlow = (cpu.ledger * 1000) / flows;
    context.progress(
      `${name} ${Math.round(value)} flows/s (best of windows ${windowRates(windows)}), flow p50 ${percentile(best.latenciesMs, 50).toFixed(1)} ms,` +
        ` p99 ${percentile(best.latenciesMs, 99).toFixed(1)} ms; ledger CPU ${cpuMsPerFlow.toFixed(3)} ms/flow` +
        ` (${(cpu.ledger / measuredSeconds).toFixed(2)} cores), bench ${(cpu.bench / measuredSeconds).toFixed(2)} cores; ${client.connectionsOpened} connections`,
    );
    const results: Measurement[] = [{ name, value }];
    if (name === 'v2_flow_64') results.push({ name: 'v2_flow_64_cpu_ms', value: cpuMsPerFlow });
    return results;
  } finally {
    timers.forEach(clearTimeout);
    client.close();
  }
}

/** The hosts reported and the flows' device profile defined: what the flows need of a fresh ledger. */
async function prepareFlowFleet(ledger: LedgerServer, setup: JsonClient, admin: string): Promise<FpgaProvider[]> {
  const providers = await reportFpgaHosts(ledger, setup, admin, HOSTS);
  await setup.expect(201, fpgaProfileCall(admin, PROFILE));
  return providers;
}

/** Nova's token for each client of v2_flow_64, each for its own project. */
const tenantTokens = (ledger: LedgerServer): string[] => Array.from({ length: FLOW_CLIENTS }, (_, index) => ledger.token(novaOf(`tenant-${index}`)));

/** v2_flow_64's fleet on a fresh ledger, and its flows to measure: logging-overhead.bench.ts runs them on ledgers started with different settings. */
export interface Flow64 {
  /** v2_flow_64 as this module measures it. */
  closedLoop(): Promise<{ flowsPerSecond: number; cpuMsPerFlow: number }>;
  /** `flows` flows one after another on one connection: the ledger's CPU per flow, with no other flow to share a commit with. */
  sequential(flows: number): Promise<number>;
}

export async function prepareFlow64(context: BenchContext, ledger: LedgerServer): Promise<Flow64> {
  const setup = new JsonClient(ledger.url, 16);
  const providers = await prepareFlowFleet(ledger, setup, ledger.token(ADMIN));
  setup.close();
  const tokens = tenantTokens(ledger);
  return {
    async closedLoop() {
      const [flows, cpu] = await measureFlows(context, ledger, 'v2_flow_64', tokens, providers);
      return { flowsPerSecond: flows.value, cpuMsPerFlow: cpu.value };
    },
    async sequential(flows) {
      const client = new JsonClient(ledger.url, 1);
      try {
        const started = ledger.cpuSeconds();
        for (let flow = 0; flow < flows; flow++) await runNovaFlow(client, tokens[0], PROFILE, providers[0]);
        return ((ledger.cpuSeconds() - started) * 1000) / flows;
      } finally {
        client.close();
      }
    },
  };
}
