import { setTimeout as delay } from 'node:timers/promises';
import type { FleetStats } from '../../../apps/agent/src/simulate/fleet-stats';
import type { LedgerServer } from '../http/ledger-server';
import { cpuBetween, readCpu } from './cpu-usage';

/** What the ledger did over one timed window of a simulated fleet. */
export interface SteadyWindow {
  readonly seconds: number;
  /** CPU seconds of the ledger process (every thread) and of this process (the fleet). */
  readonly ledgerCpuSeconds: number;
  readonly benchCpuSeconds: number;
  /** CPU seconds of each other process asked for (`alsoCpu`), read at the same moments as the ledger's. */
  readonly alsoCpuSeconds: Readonly<Record<string, number>>;
  readonly reports: number;
  readonly changedReports: number;
  readonly heartbeats: number;
  readonly errors: number;
  /** The store's head position before and after. */
  readonly headBefore: number;
  readonly headAfter: number;
}

/** What a window reads of the ledger: its head (through `url`) and its CPU (several replicas' may be summed). */
export type WindowLedger = Pick<LedgerServer, 'url' | 'cpuSeconds'>;

/** The ledger's head position, as its readiness check reports it. */
export async function headPosition(ledger: Pick<LedgerServer, 'url'>): Promise<number> {
  const reply = await fetch(new URL('/readyz', ledger.url));
  const body = (await reply.json()) as { headPosition?: number };
  if (typeof body.headPosition !== 'number') throw new Error(`/readyz answered ${reply.status} without a head position: ${JSON.stringify(body)}`);
  return body.headPosition;
}

/**
 * Lets the fleet run for `seconds`, reading the ledger's CPU and head and
 * the fleet's counters at both ends; `alsoCpu` names other processes' CPU
 * readers (a replica's, PostgreSQL's) read at the same moments.
 */
export async function measureSteadyWindow(
  ledger: WindowLedger,
  stats: Pick<FleetStats, 'totals'>,
  seconds: number,
  alsoCpu: Readonly<Record<string, () => number>> = {},
): Promise<SteadyWindow> {
  const readAlso = () => Object.fromEntries(Object.entries(alsoCpu).map(([name, read]) => [name, read()]));
  const headBefore = await headPosition(ledger);
  const before = { cpu: readCpu(ledger.cpuSeconds), also: readAlso(), calls: stats.totals(), at: performance.now() };
  await delay(seconds * 1000);
  const after = { cpu: readCpu(ledger.cpuSeconds), also: readAlso(), calls: stats.totals(), at: performance.now() };
  const headAfter = await headPosition(ledger);
  const cpu = cpuBetween(before.cpu, after.cpu);
  return {
    seconds: (after.at - before.at) / 1000,
    ledgerCpuSeconds: cpu.ledger,
    benchCpuSeconds: cpu.bench,
    alsoCpuSeconds: Object.fromEntries(Object.keys(alsoCpu).map((name) => [name, after.also[name] - before.also[name]])),
    reports: after.calls.reports - before.calls.reports,
    changedReports: after.calls.changedReports - before.calls.changedReports,
    heartbeats: after.calls.heartbeats - before.calls.heartbeats,
    errors: after.calls.errors - before.calls.errors,
    headBefore,
    headAfter,
  };
}

/** The ledger's CPU over the window, as percent of one core. */
export const cpuPercent = (window: SteadyWindow): number => (window.ledgerCpuSeconds / window.seconds) * 100;

/** What the fleet was meant to send over the window. */
export interface IntendedRates {
  readonly hosts: number;
  /** null: reports held back. */
  readonly reportIntervalSeconds: number | null;
  /** null: no heartbeats. */
  readonly heartbeatSeconds: number | null;
}

/**
 * The share of the intended calls the fleet delivered (1 = all). Below
 * about 0.97 the ledger, or the machine both share, could not keep up, and
 * the window's CPU is a lower bound of what the full rate would take.
 */
export function deliveredShare(window: SteadyWindow, intended: IntendedRates): number {
  const perSecond = (intervalSeconds: number | null) => (intervalSeconds === null ? 0 : intended.hosts / intervalSeconds);
  const wanted = (perSecond(intended.reportIntervalSeconds) + perSecond(intended.heartbeatSeconds)) * window.seconds;
  return (window.reports + window.heartbeats) / wanted;
}

/** One line: CPU, the fleet's own CPU, call rates against the intended ones, errors and the head. */
export function describeWindow(window: SteadyWindow, intended: IntendedRates): string {
  const rate = (count: number) => (count / window.seconds).toFixed(1);
  const head = window.headAfter === window.headBefore ? `nothing appended (head ${window.headAfter})` : `${window.headAfter - window.headBefore} event(s) appended`;
  const share = deliveredShare(window, intended);
  const shortfall = share < 0.97 ? ` — only ${(share * 100).toFixed(0)}% of the intended calls were delivered: the CPU figure is a lower bound` : '';
  return (
    `${window.seconds.toFixed(1)} s, ${intended.reportIntervalSeconds === null ? 'reports held back, ' : ''}${intended.heartbeatSeconds === null ? 'no heartbeats' : `heartbeats every ${intended.heartbeatSeconds} s`}: ledger CPU ${cpuPercent(window).toFixed(1)}% of a core ` +
    `(the fleet in the bench process ${((window.benchCpuSeconds / window.seconds) * 100).toFixed(0)}%), ${rate(window.reports)} reports/s ` +
    `(${window.changedReports} appended), ${rate(window.heartbeats)} heartbeats/s, ${window.errors} errors; ${head}${shortfall}`
  );
}
