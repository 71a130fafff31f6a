import { setTimeout as delay } from 'node:timers/promises';
import type { SimulatedFleet } from '../../../apps/agent/src/simulate/simulated-fleet';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import type { AgentsScaleSizes } from '../bench-sizes';
import { appendedTypes } from '../fixtures/appended-types';
import { measureChurn } from '../fixtures/churn-round';
import { benchFleet } from '../fixtures/bench-fleet';
import { measureHttpFloor } from '../fixtures/http-floor';
import type { ReportWatch } from '../fixtures/report-watch';
import { type LedgerServer, onLedgerProcess } from '../http/ledger-server';
import { processRssMb } from '../http/process-memory';
import { type CallKind, ledgerCpuMsPerCall } from '../measure/per-call-cpu';
import { cpuPercent, describeWindow, type IntendedRates, measureSteadyWindow, type SteadyWindow } from '../measure/steady-window';

const STEADY = 'agents_10k_steady_cpu_pct';
const HB60 = 'agents_10k_steady_hb60_cpu_pct';
const REPORTS_ONLY = 'agents_10k_reports_only_cpu_pct';
const HEARTBEAT_COST = 'agents_heartbeat_cpu_ms';
const REPORT_COST = 'agents_report_cpu_ms';
const HTTP_FLOOR = 'agents_http_floor_cpu_ms';
const RSS = 'agents_10k_rss_mb';
const CHURN = 'agents_churn_visible_s';
const CHURN_HB60 = 'agents_churn_hb60_visible_s';
/** Not a record: a short window with no calls, for the per-heartbeat record's notes (and a profile). */
const IDLE = 'agents_idle';

/** What each phase is for; a phase runs only when one of its records is wanted (`--only`). */
const PHASES = {
  httpFloor: [HTTP_FLOOR],
  reportsOnly: [REPORTS_ONLY, REPORT_COST],
  heartbeatsOnly: [HEARTBEAT_COST],
  slowHeartbeats: [HB60],
  churnSlow: [CHURN_HB60],
  defaultHeartbeats: [STEADY, RSS],
  churnDefault: [CHURN],
} as const;

/**
 * The issue's scale target: a simulated fleet (apps/agent/src/simulate: the
 * agent's own loops over the simulated driver, each host with its own
 * credential) against a compiled ledger process in its embedded setup.
 * Hosts register as fast as the ledger takes them (setup, with heartbeats
 * every 60 s), then report unchanged every interval, spread evenly. One
 * interval is timed with no heartbeats, one with heartbeats every 60 s and
 * reports held back, one with both and one at the agent's default (15 s);
 * in each the ledger's CPU is read from /proc and the store's head must not
 * move. Each window of one kind of call prices that call (per-call-cpu.ts).
 * A 1% device churn is timed until the inventory shows it, at 60 s
 * heartbeats and at the default. First of all, the same fleet's
 * heartbeats price a bare Node HTTP server (fixtures/http-floor.ts): the
 * floor the per-call records' notes are read against.
 * The default-heartbeat phases run last: if they overload the ledger,
 * hosts go lost, and that must not spoil the others.
 */
export const agentsScaleBench: BenchModule = {
  records: [
    { name: STEADY, unit: '%', digits: 1, min: 0 },
    { name: HB60, unit: '%', digits: 1, min: 0 },
    { name: REPORTS_ONLY, unit: '%', digits: 1, min: 0 },
    { name: HEARTBEAT_COST, unit: 'ms', min: 0 },
    { name: REPORT_COST, unit: 'ms', min: 0 },
    { name: HTTP_FLOOR, unit: 'ms', min: 0 },
    { name: RSS, unit: 'MB' },
    { name: CHURN, unit: 's', digits: 2, min: 0 },
    { name: CHURN_HB60, unit: 's', digits: 2, min: 0 },
  ],
  run: (context, wanted) => onLedgerProcess(context, 'agents_*', (ledger) => measureAgents(context, wanted, ledger)),
};

async function measureAgents(context: BenchContext, wanted: ReadonlySet<string>, ledger: LedgerServer): Promise<Measurement[]> {
  const sizes = context.sizes.agents;
  const say = (message: string) => context.progress(`agents: ${message}`);
  const wants = (phase: readonly string[]) => phase.some((name) => wanted.has(name));
  // First, before the ledger has hosts: the floor its per-call records are read against.
  const floor = wants(PHASES.httpFloor) ? await measureHttpFloor(HTTP_FLOOR, ledger.token, sizes, say) : undefined;
  const { fleet, watch, results, failures, finish } = benchFleet([ledger.url.origin], ledger.token, sizes, say);
  if (floor) results.push(floor);
  /** A window must append nothing: a miss is recorded, and fails the module at the end, loudly, without losing the records. */
  const steady = async (name: string, rates: IntendedRates, seconds = sizes.intervalSeconds): Promise<SteadyWindow> => {
    const window = await ledger.profiled(name, () => measureSteadyWindow(ledger, fleet.stats, seconds));
    say(`${name}: ${describeWindow(window, rates)}`);
    if (window.headAfter !== window.headBefore) {
      failures.push(`${name}: the window appended ${window.headAfter - window.headBefore} event(s) (${appendedTypes(ledger.dataDir, window.headBefore)}); an unchanged fleet must append nothing`);
    }
    return window;
  };
  try {
    await register(fleet, ledger, sizes, say);

    if (wants(PHASES.reportsOnly)) {
      await fleet.stopHeartbeats();
      await delay(sizes.warmupSeconds * 1000);
      const rates = intended(sizes, null);
      const reportsOnly = await steady(REPORTS_ONLY, rates);
      results.push({ name: REPORTS_ONLY, value: cpuPercent(reportsOnly), notes: windowNotes(reportsOnly, sizes, null) });
      if (wanted.has(REPORT_COST)) results.push(perCall(REPORT_COST, reportsOnly, 'reports', `unchanged report in ${REPORTS_ONLY}'s window`, rates, undefined, floor?.value));
    }
    await fleet.restartHeartbeats(sizes.slowHeartbeatSeconds);
    if (wants(PHASES.heartbeatsOnly)) {
      await fleet.holdReports();
      await delay(sizes.warmupSeconds * 1000);
      const rates = { ...intended(sizes, sizes.slowHeartbeatSeconds), reportIntervalSeconds: null };
      const heartbeatsOnly = await steady(HEARTBEAT_COST, rates);
      // How much of that the ledger spends with no calls at all, for the notes: short enough that no host goes lost.
      await fleet.stopHeartbeats();
      const idle = await steady(IDLE, { ...rates, heartbeatSeconds: null }, sizes.warmupSeconds);
      results.push(perCall(HEARTBEAT_COST, heartbeatsOnly, 'heartbeats', `heartbeat (${sizes.devicesPerHost} devices of telemetry) in a window with reports held back`, rates, idle, floor?.value));
      await fleet.restartHeartbeats(sizes.slowHeartbeatSeconds);
      fleet.resumeReports();
    }
    if (wants(PHASES.slowHeartbeats)) {
      await delay(sizes.warmupSeconds * 1000);
      const slow = await steady(HB60, intended(sizes, sizes.slowHeartbeatSeconds));
      results.push({ name: HB60, value: cpuPercent(slow), notes: windowNotes(slow, sizes, sizes.slowHeartbeatSeconds) });
    }
    if (wants(PHASES.churnSlow)) {
      results.push(await churnRecord(CHURN_HB60, fleet, ledger, watch, sizes, sizes.slowHeartbeatSeconds, say));
    }
    if (wants(PHASES.defaultHeartbeats) || wants(PHASES.churnDefault)) {
      await fleet.restartHeartbeats(sizes.heartbeatSeconds);
      await delay(Math.max(sizes.warmupSeconds, sizes.heartbeatSeconds) * 1000);
    }
    if (wants(PHASES.defaultHeartbeats)) {
      const window = await steady(STEADY, intended(sizes, sizes.heartbeatSeconds));
      const rssMb = processRssMb(ledger.pid);
      say(`ledger RSS ${rssMb.toFixed(0)} MB`);
      results.push(
        { name: STEADY, value: cpuPercent(window), notes: windowNotes(window, sizes, sizes.heartbeatSeconds) },
        { name: RSS, value: rssMb, notes: `VmRSS of the ledger process at the end of the ${STEADY} window; ${sizes.hosts} hosts × ${sizes.devicesPerHost} devices` },
      );
    }
    if (wants(PHASES.churnDefault)) {
      results.push(await churnRecord(CHURN, fleet, ledger, watch, sizes, sizes.heartbeatSeconds, say));
    }
  } catch (error) {
    failures.push((error as Error)?.stack ?? String(error));
  }
  return finish();
}

/** Setup: every host's first report and heartbeat, `concurrency` at a time. */
async function register(fleet: SimulatedFleet, ledger: LedgerServer, sizes: AgentsScaleSizes, say: (message: string) => void): Promise<void> {
  say(`registering ${sizes.hosts} hosts × ${sizes.devicesPerHost} devices, ${sizes.concurrency} at a time, heartbeats every ${sizes.slowHeartbeatSeconds} s (ledger pid ${ledger.pid})`);
  const started = performance.now();
  const cpuBefore = ledger.cpuSeconds();
  await ledger.profiled('agents_register', () => fleet.start());
  const seconds = (performance.now() - started) / 1000;
  const cpuMs = ((ledger.cpuSeconds() - cpuBefore) * 1000) / sizes.hosts;
  say(`${fleet.registered} hosts registered in ${seconds.toFixed(1)} s (${(fleet.registered / seconds).toFixed(0)}/s; ledger CPU ${cpuMs.toFixed(2)} ms per host, its heartbeats included)`);
  if (fleet.registered < sizes.hosts) throw new Error(`only ${fleet.registered} of ${sizes.hosts} hosts registered`);
}

async function churnRecord(
  name: string,
  fleet: SimulatedFleet,
  ledger: LedgerServer,
  watch: ReportWatch,
  sizes: AgentsScaleSizes,
  heartbeatSeconds: number,
  say: (message: string) => void,
): Promise<Measurement> {
  const churn = await ledger.profiled(name, () => measureChurn(fleet, ledger, watch, sizes));
  say(`${name}: ${churn.summary}`);
  return { name, value: churn.maxFromSendSeconds, notes: `max over the churned devices, heartbeats every ${heartbeatSeconds} s; ${churn.summary}` };
}

/** A record of ledger CPU per call, from a window of that kind of call only (see ledgerCpuMsPerCall). */
function perCall(name: string, window: SteadyWindow, kind: CallKind, what: string, rates: IntendedRates, idle?: SteadyWindow, floorMs?: number): Measurement {
  // The idle share is for the reader; subtracting it would bring back a difference of two windows.
  const idleShare = idle && `; with no calls the ledger used ${cpuPercent(idle).toFixed(1)}% of a core, ${((idle.ledgerCpuSeconds / idle.seconds / (window[kind] / window.seconds)) * 1000).toFixed(3)} ms per call at this rate`;
  const value = ledgerCpuMsPerCall(window, kind);
  // Beside the floor, measured in the same run at the heartbeats' rate: what the ledger spends above a bare server's wake-up, parse and answer.
  const aboveFloor = floorMs !== undefined ? `; ${(value - floorMs).toFixed(3)} ms above ${HTTP_FLOOR} (${floorMs.toFixed(3)} ms, a bare Node HTTP server at the heartbeats' rate)` : '';
  return {
    name,
    value,
    notes: `ledger CPU per ${what}: ${window.ledgerCpuSeconds.toFixed(2)} CPU s ÷ ${window[kind]} ${kind}, the ledger's own work (timers, liveness monitor) included${idleShare ?? ''}${aboveFloor}; ${describeWindow(window, rates)}`,
  };
}

function windowNotes(window: SteadyWindow, sizes: AgentsScaleSizes, heartbeatSeconds: number | null): string {
  const heartbeats = heartbeatSeconds === null ? 'no heartbeats' : `heartbeats every ${heartbeatSeconds} s${heartbeatSeconds === sizes.heartbeatSeconds ? " (the agent's default)" : ''}`;
  return `${sizes.hosts} hosts × ${sizes.devicesPerHost} devices, unchanged reports every ${sizes.intervalSeconds} s, ${heartbeats}: ${describeWindow(window, intended(sizes, heartbeatSeconds))}`;
}

const intended = (sizes: AgentsScaleSizes, heartbeatSeconds: number | null): IntendedRates => ({
  hosts: sizes.hosts,
  reportIntervalSeconds: sizes.intervalSeconds,
  heartbeatSeconds,
});
