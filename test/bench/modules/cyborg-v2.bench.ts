import { randomUUID } from 'node:crypto';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { createArqs, type FpgaProvider, fpgaProfileCall, reportFpgaHosts } from '../fixtures/cyborg-v2-fleet';
import { type HttpCall, JsonClient } from '../http/json-client';
import { type LedgerServer, startLedgerServer } from '../http/ledger-server';
import { bestWindow, runClosedLoop, windowRates } from '../measure/closed-loop';
import { sequentialLatencies } from '../measure/sequential-latency';
import { percentile } from '../measure/statistics';

/** Hosts reported: 48 FPGAs with 2–4 VFs each, 144 handles for 64 clients that each hold at most one. */
const HOSTS = 48;
/** Requests present in the caller's project while reads and profile creates are measured. */
const PRESENT_ARQS = 100;
const FLOW_CLIENTS = 64;
const PROFILE = 'fpga-dp';
/** Nova: the tenant's token plus its own service role. */
const NOVA = { user: 'nova', project: 'tenant-a', roles: ['member', 'service'] } as const;
const ADMIN = { user: 'admin', project: 'admin', roles: ['admin'] } as const;

const LATENCIES = ['v2_list_arqs', 'v2_get_arq', 'v2_create_profile'] as const;

/**
 * Cyborg's v2 API over real HTTP against a compiled ledger process on a
 * fresh data directory (the embedded SQLite setup, whatever store the run
 * is on: it is measured once, on the `sqlite` pass). Sequential latencies
 * go over one keep-alive connection; the flow rate comes from 64 clients,
 * each running Nova's create → bind → delete by instance back to back.
 */
export const cyborgV2Bench: BenchModule = {
  records: [
    ...LATENCIES.flatMap((name) => [
      { name: `${name}_p50_ms`, unit: 'ms' },
      { name: `${name}_p99_ms`, unit: 'ms' },
    ]),
    { name: 'v2_flow_64', unit: 'flows/s' },
    { name: 'v2_flow_64_cpu_ms', unit: 'ms' },
  ],
  async run(context, wanted) {
    if (context.target.name !== 'sqlite') {
      context.progress('v2_*: skipped, the ledger process is measured in its embedded setup (the sqlite pass) only');
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
  const nova = ledger.token({ ...NOVA, roles: [...NOVA.roles] });
  const setup = new JsonClient(ledger.url, 16);
  const providers = await reportFpgaHosts(ledger, setup, admin, HOSTS);
  await setup.expect(201, fpgaProfileCall(admin, PROFILE));
  const arqs = await createArqs(setup, nova, PROFILE, PRESENT_ARQS);
  setup.close();
  context.progress(`v2: ledger pid ${ledger.pid} on ${ledger.url.host}, ${HOSTS} hosts reported, ${arqs.length} requests in ${NOVA.project}`);

  const results: Measurement[] = [];
  const calls: Record<(typeof LATENCIES)[number], (n: number) => ExpectedCall> = {
    v2_list_arqs: () => ({ status: 200, method: 'GET', path: '/v2/accelerator_requests', token: nova }),
    v2_get_arq: (n) => ({ status: 200, method: 'GET', path: `/v2/accelerator_requests/${arqs[n % arqs.length]}`, token: nova }),
    v2_create_profile: (n) => ({ status: 201, ...fpgaProfileCall(admin, `bench-dp-${n}`) }),
  };
  for (const name of LATENCIES) {
    if (!wanted.has(`${name}_p50_ms`) && !wanted.has(`${name}_p99_ms`)) continue;
    const latencies = await ledger.profiled(name, () => sequentialCalls(context, ledger, calls[name]));
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    context.progress(`${name} p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms (${latencies.length} sequential requests on one connection)`);
    results.push({ name: `${name}_p50_ms`, value: p50 }, { name: `${name}_p99_ms`, value: p99 });
  }
  if (wanted.has('v2_flow_64') || wanted.has('v2_flow_64_cpu_ms')) {
    results.push(...(await ledger.profiled('v2_flow_64', () => measureFlows(context, ledger, nova, providers))));
  }
  return results;
}

/** One keep-alive connection, a fifth of the samples as warm-up, every status checked. */
async function sequentialCalls(context: BenchContext, ledger: LedgerServer, callFor: (n: number) => ExpectedCall): Promise<number[]> {
  const client = new JsonClient(ledger.url, 1);
  const samples = context.sizes.httpSamples;
  try {
    const latencies = await sequentialLatencies(Math.ceil(samples / 5), samples, async (n) => {
      const call = callFor(n);
      await client.expect(call.status, call);
    });
    if (client.connectionsOpened !== 1) throw new Error(`sequential requests used ${client.connectionsOpened} connections instead of one`);
    return latencies;
  } finally {
    client.close();
  }
}

/**
 * FLOW_CLIENTS clients in a closed loop, each bound to one FPGA provider
 * (round-robin over the hosts, so none gets more clients than it has VFs):
 * create a request, bind it to a new instance on the provider, delete the
 * instance's requests. Any unexpected status fails the benchmark. The
 * ledger's CPU per flow covers every measured window.
 */
async function measureFlows(context: BenchContext, ledger: LedgerServer, nova: string, providers: readonly FpgaProvider[]): Promise<Measurement[]> {
  const assigned = Array.from({ length: FLOW_CLIENTS }, (_, index) => providers[index % providers.length]);
  for (const provider of providers) {
    const clients = assigned.filter((candidate) => candidate === provider).length;
    if (clients > provider.handles) throw new Error(`${clients} flow clients on ${provider.hostname}, which has only ${provider.handles} VFs`);
  }
  const client = new JsonClient(ledger.url, FLOW_CLIENTS);
  const timing = context.sizes.flowTiming;
  const measuredMs = timing.rounds * timing.measureMs;
  let failure: Error | undefined;
  const cpu = { ledger: 0, bench: 0 };
  const sampleCpu = (sign: number) => {
    cpu.ledger += sign * ledger.cpuSeconds();
    const own = process.cpuUsage();
    cpu.bench += (sign * (own.user + own.system)) / 1e6;
  };
  const start = setTimeout(() => sampleCpu(-1), timing.warmupMs);
  const end = setTimeout(() => sampleCpu(1), timing.warmupMs + measuredMs);
  try {
    const windows = await runClosedLoop(FLOW_CLIENTS, timing, async (index) => {
      if (failure) throw failure;
      await runFlow(client, nova, assigned[index]).catch((error: Error) => {
        failure ??= error;
        throw error;
      });
    });
    const best = bestWindow(windows);
    const flows = windows.reduce((sum, window) => sum + window.operations, 0);
    const value = best.operations / best.seconds;
    const cpuMsPerFlow = (cpu.ledger * 1000) / flows;
    context.progress(
      `v2_flow_64 ${Math.round(value)} flows/s (best of windows ${windowRates(windows)}), flow p50 ${percentile(best.latenciesMs, 50).toFixed(1)} ms,` +
        ` p99 ${percentile(best.latenciesMs, 99).toFixed(1)} ms; ledger CPU ${cpuMsPerFlow.toFixed(3)} ms/flow (${(cpu.ledger / (measuredMs / 1000)).toFixed(2)} cores),` +
        ` bench client ${(cpu.bench / (measuredMs / 1000)).toFixed(2)} cores; ${client.connectionsOpened} connections`,
    );
    return [
      { name: 'v2_flow_64', value },
      { name: 'v2_flow_64_cpu_ms', value: cpuMsPerFlow },
    ];
  } finally {
    clearTimeout(start);
    clearTimeout(end);
    client.close();
  }
}

type ExpectedCall = HttpCall & { readonly status: number };

/** What Nova does for one instance with one FPGA: create (201), bind (202), delete by instance (204). */
async function runFlow(client: JsonClient, nova: string, provider: FpgaProvider): Promise<void> {
  const created = await client.expect(201, { method: 'POST', path: '/v2/accelerator_requests', token: nova, body: { device_profile_name: PROFILE } });
  const [arq] = (JSON.parse(created.text) as { arqs: Array<{ uuid: string }> }).arqs;
  const instance = randomUUID();
  const bind = [
    { op: 'add', path: '/hostname', value: provider.hostname },
    { op: 'add', path: '/device_rp_uuid', value: provider.rpUuid },
    { op: 'add', path: '/instance_uuid', value: instance },
  ];
  await client.expect(202, { method: 'PATCH', path: '/v2/accelerator_requests', token: nova, body: { [arq.uuid]: bind } });
  await client.expect(204, { method: 'DELETE', path: `/v2/accelerator_requests?instance=${instance}`, token: nova });
}
