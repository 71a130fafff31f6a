import { randomUUID } from 'node:crypto';
import { hash32, mulberry32 } from '../../../apps/agent/src/drivers/simulated/seeded-random';
import { pickDistinct } from '../../../apps/agent/src/simulate/device-churn';
import type { ReportDelivery } from '../../../apps/agent/src/simulate/fleet-ledger-client';
import { simulatedHostname } from '../../../apps/agent/src/simulate/fleet-shape';
import { FleetStats } from '../../../apps/agent/src/simulate/fleet-stats';
import type { ChurnedDevice } from '../../../apps/agent/src/simulate/simulated-fleet';
import type { ReportAnswer } from '../../../apps/agent/src/runtime/protocol';
import { CallSchedule } from './call-schedule';
import { CHURNED, FleetBodies } from './fleet-bodies';
import { type FleetCall, type FleetTransport, HttpFleetTransport } from './http-fleet-transport';

/**
 * How often the fleet's one timer looks for calls fallen due (answers also
 * send what is due, at once). Calls sent together share the event loop's
 * turns and their answers' reads: against a stub server, 20 ms cost 0.025 ms
 * of CPU a call at 100,000 hosts' rate, 5 ms 0.029 (and 0.15 against 0.23
 * at 3,000 hosts). A heartbeat 20 ms late changes nothing.
 */
const TICK_MS = 20;
/** A host's flags: a report is queued to go at once; its registration report was taken. */
const REPORT_SOON = 1;
const REGISTERED_REPORT = 2;
/** Answers that say "this replica cannot serve now, another may" (LedgerClient fails over on the same). */
const FAIL_OVER_STATUSES = new Set([0, 502, 503, 504]);

export interface CompactFleetSettings {
  /** The ledger's API replicas; host i speaks to replica i mod n first, and fails over to the next one. */
  readonly ledgerUrls: readonly string[];
  readonly hosts: number;
  readonly devicesPerHost: number;
  readonly reportIntervalSeconds: number;
  /** The heartbeat interval hosts register with (and announce until `restartHeartbeats`). */
  readonly heartbeatIntervalSeconds: number;
  /** Calls in flight at most, across the fleet (each on its own keep-alive connection). */
  readonly concurrency: number;
  readonly tokenFor: (hostname: string) => string;
  /** Seeds which devices churn picks. */
  readonly seed?: string;
  /** Every report the ledger answered. */
  readonly onReport?: (delivery: ReportDelivery) => void;
  /** The clock (Date.now) and, for specs, a transport and no timer of its own (tickMs 0: the spec calls `pump`). */
  readonly now?: () => number;
  readonly transport?: FleetTransport;
  readonly tickMs?: number;
}

/**
 * A fleet of simulated agents that costs less than the fleet it imitates:
 * one process holds 100,000 hosts as a few typed arrays (a byte of churn
 * state per device, a byte of flags per host) and each host's credential.
 * Two cursors (call-schedule.ts), one for reports and one for heartbeats,
 * say which host is due next; one timer, and every answer, send whatever is
 * due, up to `concurrency` calls in flight, so a call the ledger is slow to
 * take is delivered late rather than lost. Bodies come from templates
 * (fleet-bodies.ts). It speaks the agent's protocol as the agent does
 * (headers, bodies, failover to the next replica, a report at once when the
 * ledger does not know the host) but runs no discovery, drivers or jobs:
 * `npm run simulate` (apps/agent/src/simulate) is the fleet of real agent
 * loops; this one is for holding 100,000 hosts beside the ledger.
 */
export class CompactFleet {
  readonly stats: FleetStats;
  private readonly now: () => number;
  private readonly transport: FleetTransport;
  private readonly bodies: FleetBodies;
  private readonly tokens: string[];
  /** Device d of host h: `states[h * devicesPerHost + d]`. */
  private readonly states: Uint8Array;
  private readonly flags: Uint8Array;
  /** Reports of hosts with a churned device, rendered once per change. */
  private readonly churnedBodies = new Map<number, string>();
  private readonly random: () => number;
  private reports: CallSchedule | null = null;
  private heartbeats: CallSchedule | null = null;
  private announcedHeartbeatSeconds: number;
  /** Hosts whose report goes before anything scheduled (churn, a host the ledger does not know). */
  private urgent: number[] = [];
  /** Registered hosts whose registration heartbeat is next. */
  private registrationHeartbeats: number[] = [];
  private registering = false;
  private nextToRegister = 0;
  private registeredCount = 0;
  private registrationAnswers = 0;
  private inFlight = 0;
  private ticker: NodeJS.Timeout | undefined;
  private stopped = false;
  private onRegistered: (() => void) | undefined;
  private onIdle: (() => void) | undefined;
  private starting?: Promise<void>;

  constructor(private readonly settings: CompactFleetSettings) {
    this.now = settings.now ?? Date.now;
    this.stats = new FleetStats(this.now);
    this.bodies = new FleetBodies(settings.devicesPerHost);
    this.transport = settings.transport ?? new HttpFleetTransport(settings.ledgerUrls, randomUUID());
    this.tokens = Array.from({ length: settings.hosts }, (_, host) => settings.tokenFor(this.hostname(host)));
    this.states = new Uint8Array(settings.hosts * this.bodies.devicesPerHost);
    this.flags = new Uint8Array(settings.hosts);
    this.random = mulberry32(hash32(settings.seed ?? 'compact-fleet'));
    this.announcedHeartbeatSeconds = settings.heartbeatIntervalSeconds;
  }

  /** Hosts whose first report and heartbeat were taken. */
  get registered(): number {
    return this.registeredCount;
  }

  /** About how many calls are due and not sent yet (the fleet's backlog): each schedule's lag at its rate, and the urgent reports. */
  get queued(): number {
    const nowMs = this.now();
    const backlog = (schedule: CallSchedule | null) => (schedule ? Math.round((schedule.lagMs(nowMs) * schedule.hosts) / schedule.intervalMs) : 0);
    return backlog(this.reports) + backlog(this.heartbeats) + this.urgent.length + this.registrationHeartbeats.length;
  }

  get callsInFlight(): number {
    return this.inFlight;
  }

  /**
   * Registers every host (its first report, then a heartbeat announcing the
   * registration interval), `concurrency` calls at a time; heartbeats run
   * meanwhile for the hosts registered. Then starts the reports, spread
   * over the interval. Resolves once every registration was answered.
   */
  start(): Promise<void> {
    this.starting ??= new Promise<void>((resolve) => {
      this.onRegistered = resolve;
      this.registering = true;
      this.heartbeats = new CallSchedule(this.settings.hosts, this.now(), this.announcedHeartbeatSeconds * 1000);
      if (this.settings.tickMs !== 0) this.ticker = setInterval(() => this.pump(), this.settings.tickMs ?? TICK_MS);
      this.pump();
    }).then(() => this.resumeReports());
    return this.starting;
  }

  /** Stops the reports; heartbeats go on. */
  async holdReports(): Promise<void> {
    this.reports = null;
  }

  /** Reports again, every host once per interval, spread over it from now. */
  resumeReports(): void {
    if (this.stopped) return;
    this.reports = new CallSchedule(this.settings.hosts, this.now(), this.settings.reportIntervalSeconds * 1000);
    this.pump();
  }

  /** Heartbeats at `intervalSeconds` from now, spread over the shorter of it and the interval the hosts announced last (so none goes quiet longer than it said). */
  async restartHeartbeats(intervalSeconds: number): Promise<void> {
    if (this.stopped) return;
    const spreadMs = Math.min(intervalSeconds, this.announcedHeartbeatSeconds) * 1000;
    this.announcedHeartbeatSeconds = intervalSeconds;
    this.heartbeats = new CallSchedule(this.settings.hosts, this.now(), intervalSeconds * 1000, spreadMs);
    this.pump();
  }

  async stopHeartbeats(): Promise<void> {
    this.heartbeats = null;
  }

  /**
   * Changes `fraction` of all devices at once (at least one when above
   * zero): an FPGA or NIC gains two VFs or gives them back, a GPU is bound
   * to vfio-pci or back. Their hosts report at once.
   */
  async churn(fraction: number): Promise<ChurnedDevice[]> {
    const perHost = this.bodies.devicesPerHost;
    const total = this.settings.hosts * perHost;
    const count = fraction > 0 ? Math.max(1, Math.round(total * fraction)) : 0;
    const churned: ChurnedDevice[] = [];
    for (const pick of pickDistinct(total, count, this.random).sort((a, b) => a - b)) {
      const host = Math.floor(pick / perHost);
      const change = this.bodies.change(pick % perHost, this.states[pick]);
      if (!change) continue;
      this.states[pick] = this.states[pick] === 0 ? CHURNED : 0;
      this.churnedBodies.delete(host);
      churned.push({ hostname: this.hostname(host), pciAddress: this.bodies.address(pick % perHost), ...change, changedAtMs: this.now() });
      this.reportSoon(host);
    }
    this.pump();
    return churned;
  }

  /** Stops sending; resolves once the calls in flight are answered. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.ticker);
    this.onRegistered?.();
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.onIdle = resolve));
    this.transport.close();
  }

  /** Sends what is due now, up to the bound on calls in flight: registrations' heartbeats, urgent reports, then the schedules in due order, then registrations. */
  pump(): void {
    if (this.stopped) return;
    const nowMs = this.now();
    while (this.inFlight < this.settings.concurrency) {
      if (this.registrationHeartbeats.length > 0) {
        this.sendHeartbeat(this.registrationHeartbeats.pop()!, true);
      } else if (this.urgent.length > 0) {
        const host = this.urgent.shift()!;
        this.flags[host] &= ~REPORT_SOON;
        this.sendReport(host, false);
      } else if (!this.sendScheduled(nowMs)) {
        if (!this.registering || this.nextToRegister >= this.settings.hosts) return;
        this.sendReport(this.nextToRegister++, true);
      }
    }
  }

  /** The earlier of the two schedules' next calls, if due; false when neither is. */
  private sendScheduled(nowMs: number): boolean {
    const heartbeatDue = this.heartbeats?.nextDueAt() ?? Infinity;
    const reportDue = this.reports?.nextDueAt() ?? Infinity;
    if (Math.min(heartbeatDue, reportDue) > nowMs) return false;
    if (heartbeatDue <= reportDue) {
      const host = this.heartbeats!.take(nowMs);
      // A host not registered yet has nothing to beat for: its registration announces it.
      if (this.registering && host >= this.nextToRegister) return true;
      this.sendHeartbeat(host, false);
    } else {
      this.sendReport(this.reports!.take(nowMs), false);
    }
    return true;
  }

  private sendReport(host: number, registration: boolean): void {
    const hostname = this.hostname(host);
    const body = this.reportBody(host, hostname);
    const sentAtMs = this.now();
    this.call({ replica: host % this.transport.replicas, method: 'PUT', path: `/api/v1/hosts/${hostname}/report`, token: this.tokens[host], body }, (status, text) => {
      const answeredAtMs = this.now();
      if (status === 200) {
        const answer = JSON.parse(text) as ReportAnswer;
        this.stats.succeeded('report', answeredAtMs - sentAtMs, answer.appended);
        this.settings.onReport?.({ hostname, sentAtMs, answeredAtMs, answer });
        if (registration) this.flags[host] |= REGISTERED_REPORT;
      } else {
        this.stats.failed(failureCode(status, text), answeredAtMs - sentAtMs);
      }
      if (registration) this.registrationHeartbeats.push(host);
    });
  }

  private sendHeartbeat(host: number, registration: boolean): void {
    const body = this.bodies.heartbeat(this.announcedHeartbeatSeconds, host);
    const sentAtMs = this.now();
    this.call({ replica: host % this.transport.replicas, method: 'POST', path: `/api/v1/hosts/${this.hostname(host)}/heartbeat`, token: this.tokens[host], body }, (status, text) => {
      const latencyMs = this.now() - sentAtMs;
      if (status === 200) {
        this.stats.succeeded('heartbeat', latencyMs);
        if (registration && this.flags[host] & REGISTERED_REPORT) this.registeredCount++;
      } else {
        const code = failureCode(status, text);
        this.stats.failed(code, latencyMs);
        // As the agent does: a ledger that does not know the host gets its report at once.
        if (code === 'INVENTORY.HOST_NOT_FOUND') this.reportSoon(host);
      }
      if (registration) this.registrationAnswered();
    });
  }

  /** Sends `call`, once more on the next replica if this one cannot serve; `answered` gets the last answer. */
  private call(call: FleetCall, answered: (status: number, text: string) => void): void {
    this.inFlight++;
    const done = (status: number, text: string) => {
      this.inFlight--;
      answered(status, text);
      if (this.inFlight === 0) this.onIdle?.();
      this.pump();
    };
    this.transport.send(call, (status, text) => {
      if (!FAIL_OVER_STATUSES.has(status) || this.transport.replicas < 2 || this.stopped) return done(status, text);
      this.transport.send({ ...call, replica: (call.replica + 1) % this.transport.replicas }, done);
    });
  }

  private registrationAnswered(): void {
    this.registrationAnswers++;
    if (this.registrationAnswers < this.settings.hosts) return;
    this.registering = false;
    this.onRegistered?.();
  }

  private reportSoon(host: number): void {
    if (this.flags[host] & REPORT_SOON) return;
    this.flags[host] |= REPORT_SOON;
    this.urgent.push(host);
  }

  private reportBody(host: number, hostname: string): string {
    const cached = this.churnedBodies.get(host);
    if (cached !== undefined) return cached;
    const offset = host * this.bodies.devicesPerHost;
    if (!this.bodies.churned(this.states, offset)) return this.bodies.report(hostname, this.states, offset);
    const body = this.bodies.render(hostname, this.states, offset);
    this.churnedBodies.set(host, body);
    return body;
  }

  private hostname(host: number): string {
    return simulatedHostname(host, this.settings.hosts);
  }
}

/** The problem's code (`INVENTORY.HOST_NOT_FOUND`), `HTTP.<status>`, or UNREACHABLE, as the agent's fleet counts failures. */
function failureCode(status: number, text: string): string {
  if (status === 0) return 'UNREACHABLE';
  const match = /"code"\s*:\s*"([^"]+)"/.exec(text);
  return match ? match[1] : `HTTP.${status}`;
}
