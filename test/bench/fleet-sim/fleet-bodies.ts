import { normalizeHostReport, type ReportedDevice } from '@ledger/inventory';
import { buildSimulatedDevices, renderSimulatedDevice, type SimulatedDevice } from '../../../apps/agent/src/drivers/simulated/simulated-host';
import { parseSimulatedSettings, type SimulatedSettings } from '../../../apps/agent/src/drivers/simulated/simulated.settings';
import type { DeviceChange } from '../../../apps/agent/src/simulate/device-churn';
import { hostShape } from '../../../apps/agent/src/simulate/fleet-shape';
import { AGENT_VERSION } from '../../../apps/agent/src/runtime/agent-version';

/** Stands for the hostname in the template: a valid hostname (normalisation checks it) that nothing else in a report contains. */
const MARKER = 'hostmarkerqzx';
/** Heartbeat bodies per interval, told apart by their telemetry, dealt to hosts in turn. */
const TELEMETRY_VARIANTS = 16;
/** A churned device's state: its FPGA or NIC carries two more VFs, or its GPU is bound to vfio-pci. */
export const CHURNED = 1;

/**
 * The wire bodies of a compact fleet (compact-fleet.ts). Every host has the
 * same devices as the `simulated` driver renders them for one fleet-wide
 * seed, told apart by the hostname in their serials and deployable names,
 * so an unchurned host's report is one template with its hostname put in:
 * no per-host object, and the same bytes every time (what the ledger's
 * unchanged-report short cut recognises). A host with a churned device is
 * rendered in full, through the driver's own renderer and the agent's
 * normalisation (a test holds the template to that path). Heartbeats carry
 * no host-specific field, so their bodies are shared by the whole fleet.
 */
export class FleetBodies {
  readonly devicesPerHost: number;
  private readonly settings: SimulatedSettings;
  private readonly devices: readonly SimulatedDevice[];
  private readonly template: readonly string[];
  private readonly heartbeats = new Map<number, readonly string[]>();

  constructor(devicesPerHost: number, seed = 'compact-fleet') {
    this.settings = parseSimulatedSettings({ ...hostShape(devicesPerHost), seed }, MARKER);
    this.devices = buildSimulatedDevices(this.settings);
    this.devicesPerHost = this.devices.length;
    this.template = this.render(MARKER, new Uint8Array(this.devicesPerHost), 0).split(MARKER);
  }

  /** The report of `hostname`, whose devices' states are `states[offset…offset + devicesPerHost)`. */
  report(hostname: string, states: Uint8Array, offset: number): string {
    return this.churned(states, offset) ? this.render(hostname, states, offset) : this.template.join(hostname);
  }

  /** Whether any device of the host at `offset` is churned (its report is then rendered in full). */
  churned(states: Uint8Array, offset: number): boolean {
    for (let device = 0; device < this.devicesPerHost; device++) if (states[offset + device] !== 0) return true;
    return false;
  }

  /** The report rendered in full: the driver's rendering of each device in its state, normalised as the agent's discovery does. */
  render(hostname: string, states: Uint8Array, offset: number): string {
    const rendered = this.devices.map((device, index) => renderSimulatedDevice(inState(device, hostname, states[offset + index]), this.settings, hostname));
    return JSON.stringify({ devices: normalizeHostReport({ hostname, devices: rendered }).devices });
  }

  /** A heartbeat announcing `intervalSeconds`, every device ok, for host `host`. */
  heartbeat(intervalSeconds: number, host: number): string {
    let bodies = this.heartbeats.get(intervalSeconds);
    if (!bodies) {
      bodies = Array.from({ length: TELEMETRY_VARIANTS }, (_, variant) => JSON.stringify(this.heartbeatBody(intervalSeconds, variant)));
      this.heartbeats.set(intervalSeconds, bodies);
    }
    return bodies[host % TELEMETRY_VARIANTS];
  }

  /** PCI address of device `index` (the same on every host). */
  address(index: number): string {
    return this.devices[index].address;
  }

  /** What flipping device `index` of a host from `before` to the other state changes, as the inventory will show it. */
  change(index: number, before: number): DeviceChange | undefined {
    const device = this.devices[index];
    if (device.kind === 'gpu' && this.settings.vgpuType !== null) return undefined;
    const after = before === 0 ? CHURNED : 0;
    const [was, now] = [before, after].map((state) => renderSimulatedDevice(inState(device, MARKER, state), this.settings, MARKER));
    const expected = { driver: now.driver ?? null, deployableCount: deployableCount(now) };
    if (device.kind === 'gpu') return { kind: 'driver', description: `driver ${was.driver} → ${now.driver}`, expected };
    return { kind: 'vfs', description: `numVfs ${vfCount(was)} → ${vfCount(now)}`, expected };
  }

  private heartbeatBody(intervalSeconds: number, variant: number) {
    return {
      agentVersion: AGENT_VERSION,
      intervalSeconds,
      devices: this.devices.map((device, index) => ({
        pciAddress: device.address,
        health: 'ok',
        healthReason: null,
        telemetry: {
          utilizationPct: (variant * 7 + index * 13) % 100,
          temperatureC: 35 + ((variant * 3 + index) % 45),
          powerW: 40 + ((variant * 17 + index * 5) % 260),
          ...(device.kind === 'gpu' ? { memoryUsedGiB: (variant * 5 + index) % 80 } : {}),
        },
      })),
    };
  }
}

/** `device` as host `hostname` has it in `state`: its own serial, two more VFs or bound to vfio-pci when churned. */
function inState(device: SimulatedDevice, hostname: string, state: number): SimulatedDevice {
  const churned = state === CHURNED;
  return {
    ...device,
    serial: `${hostname}-${device.key}`,
    numVfs: device.kind === 'gpu' || !churned ? device.numVfs : device.numVfs + 2,
    passedThrough: device.kind === 'gpu' && churned ? new Set([device.address]) : new Set(),
  };
}

const deployableCount = (device: ReportedDevice): number => device.deployables.reduce((sum, deployable) => sum + deployable.count, 0);
const vfCount = (device: ReportedDevice): number => device.deployables.flatMap((deployable) => deployable.attachHandles).filter((handle) => handle.kind === 'VF').length;
