import { deviceFingerprint, hostFingerprint, normalizeHostReport, type ReportedDevice } from '@ledger/inventory';
import type { AcceleratorDriver } from '../drivers/accelerator-driver';
import type { AgentLogger } from './agent-logger';
import type { HeartbeatDevice } from './protocol';

/** At most this many telemetry members per device reach the ledger (docs/agent-protocol.md). */
export const MAX_TELEMETRY_PER_DEVICE = 16;

/** One full picture of the host: what the report carries, and which driver owns each PCI address. */
export interface HostPicture {
  /** Normalised as the ledger would (sorted, lower-case ids), so equal pictures fingerprint equal. */
  readonly devices: readonly ReportedDevice[];
  readonly fingerprint: string;
}

/**
 * Runs every driver's discovery and health check and merges them into one
 * host. A driver that throws keeps its last good devices (dropping them
 * would tell the ledger they vanished); a device the ledger would refuse
 * is left out with a warning rather than sinking the whole report; when two
 * drivers claim one PCI address, the one listed first in AGENT_DRIVERS wins.
 */
export class HostDiscovery {
  private readonly lastGood = new Map<string, readonly ReportedDevice[]>();
  private owners = new Map<string, AcceleratorDriver>();

  constructor(
    private readonly hostname: string,
    readonly drivers: readonly AcceleratorDriver[],
    private readonly logger: AgentLogger,
  ) {}

  async discover(): Promise<HostPicture> {
    const perDriver = await Promise.all(this.drivers.map((driver) => this.discoverWith(driver)));
    const owners = new Map<string, AcceleratorDriver>();
    const accepted: ReportedDevice[] = [];
    perDriver.forEach((devices, index) => {
      const driver = this.drivers[index];
      for (const device of devices) {
        if (!this.acceptable(driver, device)) continue;
        const address = device.pciAddress.toLowerCase();
        const owner = owners.get(address);
        if (owner) {
          this.logger.warn(`discovery: ${driver.name} and ${owner.name} both report ${address}; keeping ${owner.name}'s`);
          continue;
        }
        owners.set(address, driver);
        for (const handle of device.deployables.flatMap((deployable) => deployable.attachHandles)) {
          if (!owners.has(handle.address.toLowerCase())) owners.set(handle.address.toLowerCase(), driver);
        }
        accepted.push(device);
      }
    });
    this.owners = owners;
    const { devices } = normalizeHostReport({ hostname: this.hostname, devices: accepted });
    return { devices, fingerprint: hostFingerprint(devices.map(deviceFingerprint)) };
  }

  /** The driver that reported `pciAddress` (a device's address or one of its attach handles') at the last discovery. */
  ownerOf(pciAddress: string): AcceleratorDriver | undefined {
    return this.owners.get(pciAddress.toLowerCase());
  }

  /** Every driver's health samples, for a heartbeat. A driver whose check throws is left out of this one. */
  async health(): Promise<HeartbeatDevice[]> {
    const perDriver = await Promise.all(
      this.drivers.map((driver) =>
        driver.health().catch((error: unknown) => {
          this.logger.warn(`health: ${driver.name} failed (${(error as Error)?.message ?? error}); its devices are left out of this heartbeat`);
          return [];
        }),
      ),
    );
    return perDriver.flat().map((sample) => ({
      pciAddress: sample.pciAddress.toLowerCase(),
      health: sample.health,
      healthReason: sample.reason,
      ...(sample.cause ? { cause: sample.cause } : {}),
      telemetry: boundedTelemetry(sample.telemetry),
    }));
  }

  private async discoverWith(driver: AcceleratorDriver): Promise<readonly ReportedDevice[]> {
    try {
      const devices = await driver.discover();
      this.lastGood.set(driver.name, devices);
      return devices;
    } catch (error) {
      const kept = this.lastGood.get(driver.name) ?? [];
      this.logger.warn(`discovery: ${driver.name} failed (${(error as Error)?.message ?? error}); keeping its last ${kept.length} device(s)`);
      return kept;
    }
  }

  private acceptable(driver: AcceleratorDriver, device: ReportedDevice): boolean {
    try {
      normalizeHostReport({ hostname: this.hostname, devices: [device] });
      return true;
    } catch (error) {
      this.logger.warn(`discovery: ${driver.name} reported a device the ledger would refuse, left out: ${(error as Error).message}`);
      return false;
    }
  }
}

/** Finite numbers only, and no more than the ledger keeps. */
function boundedTelemetry(telemetry: Readonly<Record<string, number>>): Record<string, number> {
  const kept: Record<string, number> = {};
  for (const [key, value] of Object.entries(telemetry ?? {})) {
    if (Object.keys(kept).length >= MAX_TELEMETRY_PER_DEVICE) break;
    if (typeof value === 'number' && Number.isFinite(value)) kept[key] = value;
  }
  return kept;
}
