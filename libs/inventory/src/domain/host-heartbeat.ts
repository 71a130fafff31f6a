import { type DeviceHealth, isDeviceHealth, MAX_HEALTH_REASON_LENGTH } from './device-health';
import { healthCauseProblem, normalizeHealthCause, type ReportedHealthCause } from './health-cause';
import { HeartbeatInvalidError } from './heartbeat.errors';

/** Size limits of one heartbeat (the HTTP layer refuses more before the domain sees it). */
export const HEARTBEAT_LIMITS = {
  devices: 256,
  telemetryMembers: 16,
  minIntervalSeconds: 1,
  maxIntervalSeconds: 3600,
} as const;

/** What a heartbeat says about one device's health; telemetry never reaches the domain. */
export interface HeartbeatDevice {
  readonly pciAddress: string;
  readonly health: DeviceHealth;
  readonly healthReason: string | null;
  /** What made it unhealthy, as data the health policy matches (absent or null: not said). */
  readonly cause?: ReportedHealthCause | null;
}

/** The part of an agent's heartbeat that can change recorded state: who is alive, and its devices' health. */
export interface HostHeartbeat {
  readonly hostname: string;
  readonly devices: readonly HeartbeatDevice[];
}

/**
 * Checks every device's health before anything is recorded, so a bad
 * heartbeat changes nothing. PCI addresses are lower-cased (the form device
 * identities are derived from); one address listed twice is refused, since
 * its two healths would contradict.
 */
export function normalizeHeartbeat(heartbeat: HostHeartbeat): HostHeartbeat {
  const seen = new Set<string>();
  const devices = heartbeat.devices.map((device, index): HeartbeatDevice => {
    const path = `devices[${index}]`;
    const pciAddress = String(device.pciAddress).toLowerCase();
    if (seen.has(pciAddress)) throw new HeartbeatInvalidError(`${path}.pciAddress`, `lists ${pciAddress} a second time`);
    seen.add(pciAddress);
    if (!isDeviceHealth(device.health)) throw new HeartbeatInvalidError(`${path}.health`, 'must be ok, degraded or failed');
    const healthReason = device.healthReason ?? null;
    if (healthReason !== null && (typeof healthReason !== 'string' || healthReason.length > MAX_HEALTH_REASON_LENGTH)) {
      throw new HeartbeatInvalidError(`${path}.healthReason`, `must be a string of at most ${MAX_HEALTH_REASON_LENGTH} characters`);
    }
    const cause = device.cause ?? null;
    const problem = cause === null ? null : healthCauseProblem(cause);
    if (problem) throw new HeartbeatInvalidError(`${path}.cause${problem[0]}`, problem[1]);
    return { pciAddress, health: device.health, healthReason, cause: cause === null ? null : normalizeHealthCause(cause) };
  });
  return { hostname: heartbeat.hostname, devices };
}
