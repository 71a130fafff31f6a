import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { shippedPlaybookDir } from '../config/agent-config';
import { createDrivers } from '../drivers/create-drivers';
import { runCommand } from '../drivers/run-command';
import type { SimulatedDriver } from '../drivers/simulated/simulated.driver';
import type { AgentLogger } from '../runtime/agent-logger';
import { HeartbeatLoop } from '../runtime/heartbeat-loop';
import { HostDiscovery, type HostPicture } from '../runtime/host-discovery';
import { LedgerClient } from '../runtime/ledger-client';
import { ReportLoop } from '../runtime/report-loop';
import { realTimers } from '../runtime/timers';
import { DeviceChurn, type DeviceChange } from './device-churn';
import { type FleetClientShared, FleetLedgerClient } from './fleet-ledger-client';
import type { LoopGroup } from './loop-group';

/**
 * The agent's report loop compares "now" with the time the next report is
 * due after waiting a whole number of checks; a timer may fire a little
 * early by the wall clock, which would push the report a whole check later.
 * Counting it due this much early keeps every host on one report per interval.
 */
const DUE_TOLERANCE_MS = 500;

export interface FleetHostSettings {
  readonly hostname: string;
  readonly token: string;
  /** The ledger's API replicas, as the agent's LEDGER_URL lists them. */
  readonly ledgerUrls: readonly string[];
  readonly reportIntervalSeconds: number;
  /** Also how often discovery re-checks, as in the agent, but never less often than reports are due. */
  readonly heartbeatIntervalSeconds: number;
  /** The `simulated` driver's settings (AGENT_DRIVER_CONFIG's block). */
  readonly simulated: Readonly<Record<string, unknown>>;
}

/**
 * One simulated host: the real agent's discovery, report loop and heartbeat
 * loop over the `simulated` driver, speaking to the ledger with its own
 * credential. Jobs are not taken (no long poll per host).
 */
export class FleetHost {
  readonly hostname: string;
  readonly driver: SimulatedDriver;
  readonly client: FleetLedgerClient;
  private readonly discovery: HostDiscovery;
  /** What the report loop and registration discover through. */
  private readonly pictures: Pick<HostDiscovery, 'discover'>;
  private readonly reports: ReportLoop;
  private readonly churner: DeviceChurn;

  constructor(
    private readonly settings: FleetHostSettings,
    shared: FleetClientShared,
    private readonly logger: AgentLogger,
  ) {
    this.hostname = settings.hostname;
    const stateDir = join(tmpdir(), 'ledger-simulate', settings.hostname);
    // The simulated driver reads no sysfs, runs no tools and writes nothing under the state directory.
    [this.driver] = createDrivers(
      { drivers: ['simulated'], driverSettings: { simulated: settings.simulated }, hostname: settings.hostname, stateDir, playbookDir: shippedPlaybookDir() },
      { sysfsRoot: join(stateDir, 'no-sysfs'), logger, runCommand, fetch },
    ) as [SimulatedDriver];
    this.client = new FleetLedgerClient(settings.hostname, new LedgerClient({ baseUrls: settings.ledgerUrls, token: settings.token, hostname: settings.hostname }), shared);
    this.discovery = new HostDiscovery(settings.hostname, [this.driver], logger);
    this.pictures = injectsIntoDiscovery(settings.simulated) ? this.discovery : new CachedDiscovery(this.discovery);
    this.reports = new ReportLoop({
      discovery: this.pictures,
      client: this.client,
      timers: realTimers,
      logger,
      reportIntervalMs: settings.reportIntervalSeconds * 1000 - DUE_TOLERANCE_MS,
      // A fleet registering with a long heartbeat (the 100,000-host benchmark) still reports every interval.
      checkIntervalMs: Math.min(settings.heartbeatIntervalSeconds, settings.reportIntervalSeconds) * 1000,
    });
    this.churner = new DeviceChurn(this.driver);
  }

  /**
   * The host's first report and first heartbeat, back to back: the
   * heartbeat tells the ledger this host's interval at once, so it is not
   * judged by the ledger's default while it waits for its loop to start.
   * False when the ledger did not take the report (the loops retry).
   */
  async register(): Promise<boolean> {
    try {
      const picture = await this.pictures.discover();
      await this.client.report(picture.devices);
      await this.heartbeatLoop(this.settings.heartbeatIntervalSeconds).beat();
      return true;
    } catch (error) {
      this.logger.warn(`registration failed (${(error as Error)?.message ?? error}); the report loop retries`);
      return false;
    }
  }

  /** The report loop, from `delayMs` on, until `group` is aborted. Its first round reports (the loop has not sent one yet). */
  runReports(delayMs: number, group: LoopGroup): Promise<void> {
    return group.run((signal) => after(delayMs, signal, () => this.reports.run(signal)));
  }

  /** A heartbeat loop at `intervalSeconds`, from `delayMs` on, until `group` is aborted. */
  runHeartbeats(intervalSeconds: number, delayMs: number, group: LoopGroup): Promise<void> {
    return group.run((signal) => after(delayMs, signal, () => this.heartbeatLoop(intervalSeconds).run(signal)));
  }

  /** PCI addresses of the host's devices, in the driver's order (FPGAs, GPUs, NICs). */
  deviceAddresses(): string[] {
    return this.driver.devices().map((device) => device.pciAddress);
  }

  /** Changes one device (see DeviceChurn); the caller asks for a report with `reportNow`. */
  async changeDevice(pciAddress: string): Promise<DeviceChange | undefined> {
    try {
      return await this.churner.change(pciAddress);
    } finally {
      // Even a failed operation may have left the device changed.
      if (this.pictures instanceof CachedDiscovery) this.pictures.forget();
    }
  }

  reportNow(): void {
    this.reports.reportNow();
  }

  private heartbeatLoop(intervalSeconds: number): HeartbeatLoop {
    return new HeartbeatLoop({
      discovery: this.discovery,
      client: this.client,
      timers: realTimers,
      logger: this.logger,
      intervalSeconds,
      // Simulated hosts take no jobs; a host the ledger forgot reports again, as the agent does.
      onJobsWaiting: () => undefined,
      onHostUnknown: () => this.reports.reportNow(),
    });
  }
}

/**
 * The host's picture, discovered once and kept until `forget`: the
 * simulated driver's devices change only through its operations (the
 * fleet's churn, which forgets the picture), and the agent's discovery
 * would otherwise normalise and fingerprint the same 8 devices again at
 * every check of every host, a large part of the fleet's own CPU.
 */
export class CachedDiscovery implements Pick<HostDiscovery, 'discover'> {
  private picture?: Promise<HostPicture>;

  constructor(private readonly discovery: Pick<HostDiscovery, 'discover'>) {}

  discover(): Promise<HostPicture> {
    if (this.picture) return this.picture;
    const picture = this.discovery.discover();
    this.picture = picture;
    // A failed discovery is not kept: the next check tries again.
    picture.catch(() => {
      if (this.picture === picture) this.picture = undefined;
    });
    return picture;
  }

  forget(): void {
    this.picture = undefined;
  }
}

/** Settings that slow or fail the driver's operations (discovery among them): the picture is then not cached, so each check meets them as the agent would. */
function injectsIntoDiscovery(simulated: Readonly<Record<string, unknown>>): boolean {
  return simulated.latencyMs !== undefined || simulated.failureRate !== undefined || simulated.failNext !== undefined;
}

/** Runs `run` after `delayMs`, unless `stop` is aborted first. */
async function after(delayMs: number, stop: AbortSignal, run: () => Promise<void>): Promise<void> {
  if (delayMs > 0) await realTimers.sleep(delayMs, stop);
  if (!stop.aborted) await run();
}
