import { mulberry32, hash32 } from '../drivers/simulated/seeded-random';
import type { AgentLogger } from '../runtime/agent-logger';
import { type DeviceChange, type ExpectedDevice, pickDistinct } from './device-churn';
import { FleetHost } from './fleet-host';
import type { ReportDelivery } from './fleet-ledger-client';
import { hostShape, simulatedHostname } from './fleet-shape';
import { FleetStats } from './fleet-stats';
import { LoopGroup } from './loop-group';
import { RequestLimiter } from './request-limiter';

export interface FleetSettings {
  /** The ledger's API replicas (LEDGER_URL's list); host i is given it rotated to start at replica i mod n. */
  readonly ledgerUrls: readonly string[];
  /** Hosts in the whole fleet (sim-00001 …). */
  readonly hosts: number;
  /** The part of the fleet this process runs (`npm run simulate -- --workers N`); default all of it. */
  readonly slice?: FleetSlice;
  readonly devicesPerHost: number;
  readonly reportIntervalSeconds: number;
  readonly heartbeatIntervalSeconds: number;
  /** Calls in flight at most, across the fleet. */
  readonly concurrency: number;
  /** Each host's credential. */
  readonly tokenFor: (hostname: string) => string;
  /** Settings for the `simulated` driver on top of the shape `devicesPerHost` gives (seed, vgpuType, latencyMs…). */
  readonly simulated?: Readonly<Record<string, unknown>>;
  /** Seeds which devices churn picks. */
  readonly seed?: string;
  readonly logger: AgentLogger;
  /** Every report the ledger answered. */
  readonly onReport?: (delivery: ReportDelivery) => void;
}

/** Worker `worker` of `workers` (from 0): it runs every host whose index modulo `workers` is `worker`. */
export interface FleetSlice {
  readonly worker: number;
  readonly workers: number;
}

/**
 * The fleet-wide indices of a slice's hosts: interleaved rather than in
 * blocks, so each worker's hosts are spread over the whole interval as the
 * fleet's are, and every worker carries an even share of the rate at every
 * moment.
 */
export function sliceIndices(hosts: number, slice: FleetSlice = { worker: 0, workers: 1 }): number[] {
  const { worker, workers } = slice;
  if (!Number.isInteger(workers) || workers < 1 || !Number.isInteger(worker) || worker < 0 || worker >= workers) throw new RangeError(`no worker ${worker} of ${workers}`);
  return Array.from({ length: Math.max(0, Math.ceil((hosts - worker) / workers)) }, (_, position) => worker + position * workers);
}

/** One device churn changed. */
export interface ChurnedDevice {
  readonly hostname: string;
  readonly pciAddress: string;
  readonly kind: DeviceChange['kind'];
  readonly description: string;
  readonly expected: ExpectedDevice;
  readonly changedAtMs: number;
}

/**
 * Many simulated hosts in one process, each the real agent's report and
 * heartbeat loops over the `simulated` driver with its own credential,
 * sharing a bound on calls in flight. `start` registers every host as fast
 * as that bound allows, then spreads the hosts' reports evenly over the
 * report interval and their heartbeats over the heartbeat interval, so the
 * ledger sees a steady rate rather than bursts.
 */
export class SimulatedFleet {
  /** This process's hosts (all of them, unless the settings give a slice). */
  readonly hosts: readonly FleetHost[];
  /** Each host's index in the whole fleet. */
  private readonly indices: readonly number[];
  readonly stats = new FleetStats();
  readonly limiter: RequestLimiter;
  private readonly stopController = new AbortController();
  private heartbeatLoops = new LoopGroup();
  private reportLoops = new LoopGroup();
  private reportRuns: Promise<void>[] = [];
  private heartbeatRuns: Promise<void>[] = [];
  private readonly random: () => number;
  private registeredCount = 0;
  /** The heartbeat interval the hosts last told the ledger. */
  private announcedHeartbeatSeconds: number;
  private starting?: Promise<void>;

  constructor(private readonly settings: FleetSettings) {
    this.limiter = new RequestLimiter(settings.concurrency);
    this.announcedHeartbeatSeconds = settings.heartbeatIntervalSeconds;
    this.random = mulberry32(hash32(settings.seed ?? 'simulated-fleet'));
    const shared = { limiter: this.limiter, stats: this.stats, onReport: settings.onReport };
    const simulated = { ...hostShape(settings.devicesPerHost), ...settings.simulated };
    const rotations = settings.ledgerUrls.map((_, by) => rotated(settings.ledgerUrls, by));
    this.indices = sliceIndices(settings.hosts, settings.slice);
    this.hosts = this.indices.map((index) => {
      const hostname = simulatedHostname(index, settings.hosts);
      return new FleetHost(
        {
          hostname,
          token: settings.tokenFor(hostname),
          // Host i starts its list at replica i mod n: the fleet spreads evenly over the replicas whether the
          // client uses the first address it is given or one its hostname picks (LedgerClient's failover).
          ledgerUrls: rotations[index % rotations.length] ?? settings.ledgerUrls,
          reportIntervalSeconds: settings.reportIntervalSeconds,
          heartbeatIntervalSeconds: settings.heartbeatIntervalSeconds,
          simulated,
        },
        shared,
        prefixed(settings.logger, hostname),
      );
    });
  }

  /** Hosts registered so far by `start`. */
  get registered(): number {
    return this.registeredCount;
  }

  get stopped(): boolean {
    return this.stopController.signal.aborted;
  }

  /**
   * Registers every host (first report and heartbeat, `concurrency` hosts
   * at a time), starting each host's heartbeats as it is registered, then
   * starts the report loops spread over the interval. Resolves once the
   * loops are started; they run until `stop`.
   */
  start(): Promise<void> {
    this.starting ??= this.registerThenRun();
    return this.starting;
  }

  private async registerThenRun(): Promise<void> {
    const stop = this.stopController.signal;
    const heartbeatMs = this.settings.heartbeatIntervalSeconds * 1000;
    let next = 0;
    const worker = async () => {
      while (next < this.hosts.length && !stop.aborted) {
        const index = next++;
        const host = this.hosts[index];
        if (await host.register()) this.registeredCount++;
        this.heartbeatRuns.push(host.runHeartbeats(this.settings.heartbeatIntervalSeconds, this.spread(index, heartbeatMs), this.heartbeatLoops));
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.settings.concurrency, this.hosts.length) }, worker));
    this.resumeReports();
  }

  /**
   * Stops every report loop; heartbeats go on, and count as sightings (the
   * scale benchmark prices a heartbeat in a window of heartbeats alone).
   */
  async holdReports(): Promise<void> {
    this.reportLoops = await endLoops(this.reportLoops, this.reportRuns);
    this.reportRuns = [];
  }

  /** Starts every host's report loop, spread over the interval; a host whose report is due sends it in its first round. */
  resumeReports(): void {
    if (this.stopped) return;
    const reportMs = this.settings.reportIntervalSeconds * 1000;
    this.reportRuns = this.hosts.map((host, index) => host.runReports(this.spread(index, reportMs), this.reportLoops));
  }

  /**
   * Stops every heartbeat loop and starts new ones at `intervalSeconds`
   * (the scale benchmark compares heartbeat rates). Each host's first new
   * heartbeat announces the new interval; until then the ledger expects
   * the old one, so the new loops start spread over the shorter of the two.
   */
  async restartHeartbeats(intervalSeconds: number): Promise<void> {
    await this.stopHeartbeats();
    if (this.stopped) return;
    const spreadMs = Math.min(intervalSeconds, this.announcedHeartbeatSeconds) * 1000;
    this.announcedHeartbeatSeconds = intervalSeconds;
    this.heartbeatRuns = this.hosts.map((host, index) => host.runHeartbeats(intervalSeconds, this.spread(index, spreadMs), this.heartbeatLoops));
  }

  /**
   * Stops every heartbeat loop; reports go on. The ledger counts a report
   * as a sighting too, so hosts stay up as long as the report interval is
   * under the lost threshold of the heartbeat interval they announced.
   */
  async stopHeartbeats(): Promise<void> {
    this.heartbeatLoops = await endLoops(this.heartbeatLoops, this.heartbeatRuns);
    this.heartbeatRuns = [];
  }

  /**
   * Changes `fraction` of all devices at once (a whole number, at least one
   * when the fraction is above zero) and has their hosts report at once.
   * Devices with nothing to change (vGPU-only GPUs) are skipped.
   */
  async churn(fraction: number): Promise<ChurnedDevice[]> {
    // Every host has the same shape (only the seed differs), so the first one says how many devices each has.
    const perHost = this.hosts[0]?.deviceAddresses().length ?? 0;
    const total = this.hosts.length * perHost;
    const count = fraction > 0 ? Math.max(1, Math.round(total * fraction)) : 0;
    // Concurrently: a driver configured with latencyMs would otherwise take its latency once per device.
    const changes = await Promise.all(
      pickDistinct(total, count, this.random)
        .sort((a, b) => a - b)
        .map(async (pick): Promise<[FleetHost, ChurnedDevice] | undefined> => {
          const host = this.hosts[Math.floor(pick / perHost)];
          const pciAddress = host.deviceAddresses()[pick % perHost];
          const change = await host.changeDevice(pciAddress).catch((error: Error) => {
            this.settings.logger.warn(`${host.hostname}: churn of ${pciAddress} failed (${error.message})`);
            return undefined;
          });
          if (!change) return undefined;
          return [host, { hostname: host.hostname, pciAddress, ...change, changedAtMs: Date.now() }];
        }),
    );
    const done = changes.filter((entry) => entry !== undefined);
    for (const host of new Set(done.map(([host]) => host))) host.reportNow();
    return done.map(([, device]) => device);
  }

  /** Stops every loop; calls in flight finish (each within the client's timeout). */
  async stop(): Promise<void> {
    this.stopController.abort();
    this.heartbeatLoops.abort();
    this.reportLoops.abort();
    this.limiter.close();
    // A failed start was the starter's to report; stopping only has to end what runs.
    await this.starting?.catch(() => undefined);
    await Promise.all([...this.reportRuns, ...this.heartbeatRuns]);
  }

  /** The offset within a period of this process's `position`th host: evenly spaced over the whole fleet, so a period carries one call per host at a steady rate. */
  private spread(position: number, periodMs: number): number {
    return Math.floor((this.indices[position] * periodMs) / this.settings.hosts);
  }
}

/** `urls` starting at its `by`th, the earlier ones after the last. */
export function rotated<T>(urls: readonly T[], by: number): readonly T[] {
  return [...urls.slice(by), ...urls.slice(0, by)];
}

/** Aborts the loops of `group` and waits for them to end; resolves to a fresh group for the next ones. */
async function endLoops(group: LoopGroup, runs: readonly Promise<void>[]): Promise<LoopGroup> {
  group.abort();
  await Promise.all(runs);
  return new LoopGroup();
}

function prefixed(logger: AgentLogger, hostname: string): AgentLogger {
  return {
    log: (message) => logger.log(`${hostname}: ${message}`),
    warn: (message) => logger.warn(`${hostname}: ${message}`),
    error: (message) => logger.error(`${hostname}: ${message}`),
  };
}
