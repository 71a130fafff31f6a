import { loadavg } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { forEachConcurrently } from '@ledger/kernel';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { benchPostgresUrl } from '../bench-options';
import type { AgentsReplicasSizes } from '../bench-sizes';
import { measureChurn } from '../fixtures/churn-round';
import { compactBenchFleet, type FleetUnderBench } from '../fixtures/bench-fleet';
import { JsonClient } from '../http/json-client';
import { type LedgerReplicas, type ReplicaSpec, startLedgerReplicas } from '../http/ledger-replicas';
import type { LedgerServer } from '../http/ledger-server';
import { cpuSecondsBetween, processesCpuSeconds } from '../http/process-cpu';
import { heapUsedAfterGc, processRssMb } from '../http/process-memory';
import { cpuPercent, deliveredShare, describeWindow, headPosition, type IntendedRates, measureSteadyWindow, type SteadyWindow, type WindowLedger } from '../measure/steady-window';

const CPU = 'agents_100k_replicas_cpu_pct';
const CHURN = 'agents_100k_churn_visible_s';
const DELIVERED = 'agents_100k_delivered_pct';
const SIM_CPU = 'agents_sim_cpu_ms_per_call';
const SIM_HEAP = 'agents_sim_heap_kb_per_host';
/** The records of the window, each measured over it. */
const WINDOW_RECORDS = [CPU, DELIVERED, SIM_CPU, SIM_HEAP];
const ADMIN = { user: 'admin', project: 'admin', roles: ['admin' as const] };
/** How often the tables are analyzed while the fleet registers, on a server without autovacuum. */
const ANALYZE_MS = 30_000;
/** The hosts list's largest page. */
const PAGE = 1000;
/** Reads at once when the views are checked. */
const READERS = 16;
/** The deployment measured: two API replicas, and one processors replica projecting for both (test/support/scale-out.ts runs two of each). */
const REPLICAS: readonly ReplicaSpec[] = [
  { instance: 'api-1', roles: 'api,conductor' },
  { instance: 'api-2', roles: 'api,conductor' },
  { instance: 'processors-1', roles: 'processors' },
];

/**
 * Issue 15's target at 100,000 hosts: the compact simulated fleet
 * (fleet-sim/compact-fleet.ts, issue 28: cheaper than the agent's own loops
 * agents-scale.bench.ts runs, so it fits beside the ledger) against the
 * scale-out deployment on this machine,
 * compiled ledger replicas on one fresh PostgreSQL schema, the hosts spread
 * over the API replicas through the list of addresses. Hosts register with
 * a long heartbeat interval (none goes lost while the rest register), the
 * projections catch up, then heartbeats go to the agent's default and one
 * report interval is timed: every replica's CPU summed, the head unmoved.
 * The same window gives the share of intended calls delivered and the
 * simulator's own CPU per call and heap per host. Then a churn round, then
 * the views: every host and device in the inventory, none lost, telemetry
 * for a sample of hosts.
 */
export const agentsReplicasBench: BenchModule = {
  records: [
    { name: CPU, unit: '%', digits: 1, min: 0 },
    { name: CHURN, unit: 's', digits: 2, min: 0 },
    { name: DELIVERED, unit: '%', digits: 1, min: 0 },
    { name: SIM_CPU, unit: 'ms', digits: 4, min: 0 },
    { name: SIM_HEAP, unit: 'KB', digits: 2, min: 0 },
  ],
  async run(context, wanted) {
    if (context.target.name !== 'postgres') {
      context.progress('agents_100k_*: skipped; the replicas share one PostgreSQL, measured on the postgres pass');
      return [];
    }
    const deployment = await startLedgerReplicas(context.progress, benchPostgresUrl(), REPLICAS);
    try {
      return await measureReplicas(context, wanted, deployment);
    } finally {
      await deployment.stop();
    }
  },
};

async function measureReplicas(context: BenchContext, wanted: ReadonlySet<string>, deployment: LedgerReplicas): Promise<Measurement[]> {
  const sizes = withHostsFrom(context.sizes.agentsReplicas, process.env);
  const say = (message: string) => context.progress(`agents_100k: ${message}`);
  const [api] = deployment.apis;
  const heapBefore = heapUsedAfterGc();
  const { fleet, watch, results, failures, finish } = compactBenchFleet(deployment.apis.map((server) => server.url.origin), api.token, sizes, say);
  const summed: WindowLedger = { url: api.url, cpuSeconds: () => deployment.replicas.reduce((sum, replica) => sum + replica.server.cpuSeconds(), 0) };
  // A server without autovacuum never analyzes the tables the fleet fills: the planner, estimating
  // them empty, scans whole tables for the projections' lookups, and registration slows as the fleet grows.
  let analyzeRun: Promise<void> | undefined;
  const analyzeOnce = () => {
    analyzeRun ??= deployment
      .analyze()
      .catch((error: Error) => say(`ANALYZE failed: ${error.message}`))
      .finally(() => (analyzeRun = undefined));
  };
  const analyzing = (await deployment.autovacuum()) ? undefined : setInterval(analyzeOnce, ANALYZE_MS);
  if (analyzing) say(`PostgreSQL runs with autovacuum off: the bench runs ANALYZE on the schema every ${ANALYZE_MS / 1000} s until the projections have caught up, as autovacuum would`);
  try {
    const registration = await register(fleet, deployment, sizes, say);
    const catchUp = await waitForProjections(deployment, say);
    if (analyzing) {
      clearInterval(analyzing);
      await deployment.analyze();
    }

    await fleet.restartHeartbeats(sizes.heartbeatSeconds);
    await delay(Math.max(sizes.warmupSeconds, sizes.heartbeatSeconds) * 1000);
    if (WINDOW_RECORDS.some((name) => wanted.has(name))) {
      const alsoCpu = Object.fromEntries(deployment.replicas.map((replica) => [replica.instance, () => replica.server.cpuSeconds()]));
      const postgresBefore = processesCpuSeconds(await deployment.postgresBackends());
      // With LEDGER_BENCH_PROFILE_DIR set, api-1's CPU profile of the window (the other replica serves the same calls).
      const window = await api.profiled(CPU, () => measureSteadyWindow(summed, fleet.stats, sizes.intervalSeconds, alsoCpu));
      const postgresSeconds = cpuSecondsBetween(postgresBefore, processesCpuSeconds(await deployment.postgresBackends()));
      const rates: IntendedRates = { hosts: sizes.hosts, reportIntervalSeconds: sizes.intervalSeconds, heartbeatSeconds: sizes.heartbeatSeconds };
      say(`${CPU}: ${describeWindow(window, rates)}; ${perProcess(window, postgresSeconds)}`);
      if (window.headAfter !== window.headBefore) {
        failures.push(`${CPU}: the window appended ${window.headAfter - window.headBefore} event(s) (${await deployment.appendedTypes(window.headBefore)}); an unchanged fleet must append nothing`);
      }
      const notes = `${windowNotes(window, sizes, rates)}; ${perProcess(window, postgresSeconds)}; ${registration}; ${catchUp}`;
      results.push(
        { name: CPU, value: cpuPercent(window), notes },
        { name: DELIVERED, value: deliveredShare(window, rates) * 100, notes: `calls answered over the ${CPU} window against those the schedule intended (every host's report once and heartbeat ${sizes.intervalSeconds / sizes.heartbeatSeconds} times an interval); ${notes}` },
        ...simulatorRecords(window, sizes.hosts, heapBefore),
      );
    }
    if (wanted.has(CHURN)) {
      // A churn that does not show fails the module, but the views are still checked.
      try {
        const churn = await measureChurn(fleet, api, watch, sizes);
        say(`${CHURN}: ${churn.summary}`);
        results.push({ name: CHURN, value: churn.maxFromSendSeconds, notes: `max over the churned devices, ${sizes.hosts} hosts, heartbeats every ${sizes.heartbeatSeconds} s, reads through ${api.url.origin}; ${churn.summary}` });
      } catch (error) {
        say(`${CHURN}: ${(error as Error).message}`);
        failures.push(`${CHURN}: ${(error as Error)?.stack ?? String(error)}`);
      }
    }
    failures.push(...(await checkViews(deployment, sizes, say)));
  } catch (error) {
    failures.push((error as Error)?.stack ?? String(error));
  }
  clearInterval(analyzing);
  return finish();
}

/** Setup: every host's first report and heartbeat, `concurrency` at a time, through the replicas in turn. Resolves to a line for the notes. */
async function register(fleet: FleetUnderBench, deployment: LedgerReplicas, sizes: AgentsReplicasSizes, say: (message: string) => void): Promise<string> {
  say(
    `registering ${sizes.hosts} hosts × ${sizes.devicesPerHost} devices through ${deployment.apis.map((api) => api.url.origin).join(', ')}, ` +
      `${sizes.concurrency} at a time, heartbeats every ${sizes.slowHeartbeatSeconds} s (replicas ${deployment.replicas.map((replica) => `${replica.instance} pid ${replica.server.pid}`).join(', ')})`,
  );
  const started = performance.now();
  const cpuBefore = deployment.replicas.map((replica) => replica.server.cpuSeconds());
  const postgresBefore = processesCpuSeconds(await deployment.postgresBackends());
  await fleet.start();
  const seconds = (performance.now() - started) / 1000;
  const perHost = (cpuSeconds: number) => ((cpuSeconds * 1000) / sizes.hosts).toFixed(2);
  const replicaCpu = deployment.replicas.map((replica, index) => `${replica.instance} ${perHost(replica.server.cpuSeconds() - cpuBefore[index])}`).join(', ');
  const line =
    `registration: ${fleet.registered} hosts in ${seconds.toFixed(0)} s (${(fleet.registered / seconds).toFixed(0)}/s); ms of CPU per host: ${replicaCpu}, ` +
    `PostgreSQL's backends serving the replicas ${perHost(cpuSecondsBetween(postgresBefore, processesCpuSeconds(await deployment.postgresBackends())))}`;
  say(line);
  // A host whose first report or heartbeat failed is registered by its report loop within an interval; the views check it at the end.
  if (fleet.registered < sizes.hosts) say(`${sizes.hosts - fleet.registered} hosts' registration failed; their report loops retry`);
  if (fleet.registered < sizes.hosts * 0.99) throw new Error(`only ${fleet.registered} of ${sizes.hosts} hosts registered`);
  return fleet.registered < sizes.hosts ? `${line} (${sizes.hosts - fleet.registered} failed, retried by their report loops)` : line;
}

/**
 * The simulator's own cost over the window: the bench process's CPU (the
 * fleet is nearly all it does then) per call answered, and its heap after a
 * full collection above what it held before the fleet was built, per host.
 */
function simulatorRecords(window: SteadyWindow, hosts: number, heapBefore: number): Measurement[] {
  const calls = window.reports + window.heartbeats + window.errors;
  const heapKbPerHost = (heapUsedAfterGc() - heapBefore) / 1024 / hosts;
  const load = `load ${loadavg().map((value) => value.toFixed(1)).join(' ')}`;
  return [
    { name: SIM_CPU, value: (window.benchCpuSeconds * 1000) / calls, notes: `the bench process's CPU (the compact fleet, HTTP included) ${window.benchCpuSeconds.toFixed(2)} s over ${calls} calls in ${window.seconds.toFixed(1)} s; ${load}` },
    { name: SIM_HEAP, value: heapKbPerHost, notes: `heap in use after a full GC, above what the bench held before building the fleet, ÷ ${hosts} hosts, at the end of the ${CPU} window; fleet RSS ${processRssMb(process.pid).toFixed(0)} MB` },
  ];
}

/** Waits until every API replica reads at the head (the processors replica has projected every registration); resolves to a line for the notes. */
async function waitForProjections(deployment: LedgerReplicas, say: (message: string) => void): Promise<string> {
  const started = performance.now();
  const head = await headPosition(deployment.apis[0]);
  for (const api of deployment.apis) {
    const client = new JsonClient(api.url, 1);
    try {
      for (;;) {
        const reply = await client.send({ method: 'GET', path: '/api/v1/hosts?limit=1', token: api.token(ADMIN), headers: { 'x-ledger-min-position': String(head) } });
        if (reply.status === 200) break;
        if (!reply.text.includes('CONSISTENCY.NOT_CAUGHT_UP')) throw new Error(`GET /api/v1/hosts on ${api.url.origin} answered ${reply.status}: ${reply.text.slice(0, 500)}`);
        say(`waiting for the projections to reach position ${head}`);
      }
    } finally {
      client.close();
    }
  }
  const line = `projections at the head (${head}) ${((performance.now() - started) / 1000).toFixed(1)} s after the last registration`;
  say(line);
  return line;
}

/**
 * The views at the end, with the fleet still running: every host in the
 * inventory (pages of the hosts list) with all its devices and its agent up,
 * and each of an even sample of hosts with telemetry for every device.
 * Resolves to what is wrong (nothing: an empty list).
 */
async function checkViews(deployment: LedgerReplicas, sizes: AgentsReplicasSizes, say: (message: string) => void): Promise<string[]> {
  const [first, second = first] = deployment.apis;
  const head = await headPosition(first);
  const hosts = await listHosts(first, head);
  const devices = hosts.reduce((sum, host) => sum + host.deviceCount, 0);
  const notUp = hosts.filter((host) => host.agentStatus !== 'up');
  const byStatus = countBy(notUp.map((host) => host.agentStatus));
  const sample = Array.from({ length: Math.min(sizes.telemetrySample, sizes.hosts) }, (_, index) => hosts[Math.floor((index * hosts.length) / Math.min(sizes.telemetrySample, sizes.hosts))]).filter(Boolean);
  const withoutTelemetry: string[] = [];
  const client = new JsonClient(second.url, READERS);
  try {
    await forEachConcurrently(sample, READERS, async (host) => {
      const reply = await client.send({ method: 'GET', path: `/api/v1/hosts/${host.hostname}/telemetry`, token: second.token(ADMIN) });
      const body = reply.status === 200 ? (JSON.parse(reply.text) as { devices?: Array<{ telemetry?: Record<string, number> }> }) : undefined;
      const complete = body?.devices?.length === sizes.devicesPerHost && body.devices.every((device) => Object.keys(device.telemetry ?? {}).length > 0);
      if (!complete) withoutTelemetry.push(`${host.hostname} (${reply.status}: ${reply.text.slice(0, 120)})`);
    });
  } finally {
    client.close();
  }
  say(
    `views at position ${head}: ${hosts.length} hosts, ${devices} devices, ${notUp.length} agents not up${notUp.length ? ` (${JSON.stringify(byStatus)})` : ''}; ` +
      `telemetry complete for ${sample.length - withoutTelemetry.length} of ${sample.length} sampled hosts (read through ${second.url.origin})`,
  );
  const problems: string[] = [];
  if (hosts.length !== sizes.hosts) problems.push(`the inventory lists ${hosts.length} hosts, not ${sizes.hosts}`);
  if (devices !== sizes.hosts * sizes.devicesPerHost) problems.push(`the inventory counts ${devices} devices, not ${sizes.hosts * sizes.devicesPerHost}`);
  if (notUp.length > 0) problems.push(`${notUp.length} hosts' agents are not up (${JSON.stringify(byStatus)}, e.g. ${notUp[0].hostname})`);
  if (withoutTelemetry.length > 0) problems.push(`${withoutTelemetry.length} of ${sample.length} sampled hosts have no telemetry for every device, e.g. ${withoutTelemetry[0]}`);
  return problems;
}

interface HostRow {
  readonly hostname: string;
  readonly deviceCount: number;
  readonly agentStatus: string;
}

/** Every host, a page of PAGE at a time, read at `position` or later. */
async function listHosts(api: LedgerServer, position: number): Promise<HostRow[]> {
  const client = new JsonClient(api.url, 1);
  const hosts: HostRow[] = [];
  try {
    for (let cursor: string | undefined; ; ) {
      const path = `/api/v1/hosts?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const reply = await client.expect(200, { method: 'GET', path, token: api.token(ADMIN), headers: { 'x-ledger-min-position': String(position) } });
      const page = JSON.parse(reply.text) as { items: HostRow[]; nextCursor?: string | null };
      hosts.push(...page.items);
      if (!page.nextCursor) return hosts;
      cursor = page.nextCursor;
    }
  } finally {
    client.close();
  }
}

/** LEDGER_BENCH_REPLICAS_HOSTS, when set, replaces the fleet's size (to try the module at 10,000 hosts, say); the record names stay. */
export function withHostsFrom(sizes: AgentsReplicasSizes, env: NodeJS.ProcessEnv): AgentsReplicasSizes {
  const value = env.LEDGER_BENCH_REPLICAS_HOSTS?.trim();
  if (!value) return sizes;
  if (!/^[1-9]\d*$/.test(value)) throw new Error(`LEDGER_BENCH_REPLICAS_HOSTS must be a positive integer, not ${JSON.stringify(value)}`);
  return { ...sizes, hosts: Number(value) };
}

const countBy = (values: readonly string[]): Record<string, number> => values.reduce<Record<string, number>>((counts, value) => ({ ...counts, [value]: (counts[value] ?? 0) + 1 }), {});

/**
 * Each replica's CPU, that of PostgreSQL's backends serving the replicas
 * (its own background processes, shared with every other client of the
 * server, are left out) and the bench process's (the fleet), in % of one
 * core over the window.
 */
function perProcess(window: SteadyWindow, postgresSeconds: number): string {
  const percent = (cpuSeconds: number) => `${((cpuSeconds / window.seconds) * 100).toFixed(1)}%`;
  const processes = Object.entries(window.alsoCpuSeconds).map(([name, cpuSeconds]) => `${name} ${percent(cpuSeconds)}`);
  return (
    `CPU by process: ${processes.join(', ')}, PostgreSQL's backends serving them ${percent(postgresSeconds)}, the fleet (bench process) ${percent(window.benchCpuSeconds)}; ` +
    `fleet RSS ${processRssMb(process.pid).toFixed(0)} MB`
  );
}

function windowNotes(window: SteadyWindow, sizes: AgentsReplicasSizes, rates: IntendedRates): string {
  return (
    `all ${REPLICAS.length} replicas summed (${REPLICAS.map((replica) => `${replica.instance}: ${replica.roles}`).join('; ')}), ${sizes.hosts} hosts × ${sizes.devicesPerHost} devices, ` +
    `unchanged reports every ${sizes.intervalSeconds} s, heartbeats every ${sizes.heartbeatSeconds} s (the agent's default): ${describeWindow(window, rates)}`
  );
}
