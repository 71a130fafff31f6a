import { type DeviceHealthCause, healthCauseProblem, normalizeHealthCause, type ReportedHealthCause } from '@ledger/inventory';
import { DriverSettings } from '../driver-settings';

export const SIMULATED_OPERATIONS = [
  'discover',
  'health',
  'program',
  'configureVfs',
  'createMdev',
  'removeMdev',
  'carve',
  'destroy',
  'attach',
  'detach',
  'probe',
  'clean',
] as const;
export type SimulatedOperation = (typeof SIMULATED_OPERATIONS)[number];

/** A scripted health change: `device` is a key (`fpga0`, `gpu1`, `nic0`), checks count health() calls from 1. */
export interface SimulatedDegradation {
  readonly device: string;
  readonly fromCheck: number;
  readonly toCheck: number | null;
  readonly health: 'degraded' | 'failed';
  readonly reason: string;
  /** The cause the heartbeat carries (e.g. `{ kind: xid, code: 79 }`), checked as the ledger checks it. */
  readonly cause?: DeviceHealthCause;
}

export interface SimulatedSettings {
  /** Seeds addresses, serials and telemetry: the same seed is the same host (default: the hostname). */
  readonly seed: string;
  readonly fpgas: number;
  /** PR regions per FPGA, each its own deployable. */
  readonly fpgaRegions: number;
  readonly fpgaVfs: number;
  readonly gpus: number;
  /** An mdev type makes the GPUs VGPU providers (`nvidia-700`); null: PGPUs. */
  readonly vgpuType: string | null;
  readonly vgpuInstances: number;
  /** GPUs in MIG mode: A100-like GPU instance profiles (1g.10gb … 7g.80gb), carved and destroyed by jobs; no whole-GPU deployable. */
  readonly gpuMig: boolean;
  /**
   * Keep the MIG layouts in the driver's work directory (`mig.json`), so an
   * agent killed and started again finds the GPU instances it carved, as a
   * real GPU keeps them (crash tests); off: each start has empty GPUs.
   */
  readonly persistMig: boolean;
  readonly nics: number;
  readonly nicVfs: number;
  readonly physicalNetwork: string;
  /** Milliseconds each operation takes. */
  readonly latencyMs: Readonly<Record<SimulatedOperation, number>>;
  /** Chance (0–1) that an operation fails, drawn from the seed. */
  readonly failureRate: Readonly<Record<SimulatedOperation, number>>;
  /** Fail the next N of an operation (more can be added at run time with `failNext`). */
  readonly failNext: Readonly<Partial<Record<SimulatedOperation, number>>>;
  readonly degradations: readonly SimulatedDegradation[];
}

/**
 * `simulated` settings. Defaults: one FPGA (one region, 4 VFs), two PGPUs,
 * one NIC with 4 VFs on physnet1; no latency, no failures.
 */
export function parseSimulatedSettings(raw: unknown, hostname: string): SimulatedSettings {
  const settings: DriverSettings = new DriverSettings(raw, 'simulated');
  const parsed: SimulatedSettings = {
    seed: settings.string('seed', hostname),
    fpgas: settings.number('fpgas', 1, 0, 16),
    fpgaRegions: settings.number('fpgaRegions', 1, 1, 8),
    fpgaVfs: settings.number('fpgaVfs', 4, 0, 64),
    gpus: settings.number('gpus', 2, 0, 16),
    vgpuType: settings.optionalString('vgpuType') ?? null,
    vgpuInstances: settings.number('vgpuInstances', 4, 1, 64),
    gpuMig: settings.boolean('gpuMig', false),
    persistMig: settings.boolean('persistMig', false),
    nics: settings.number('nics', 1, 0, 8),
    nicVfs: settings.number('nicVfs', 4, 0, 64),
    physicalNetwork: settings.string('physicalNetwork', 'physnet1'),
    latencyMs: perOperation(settings, 'latencyMs', 0, 600_000),
    failureRate: perOperation(settings, 'failureRate', 0, 1, false),
    failNext: failNextCounts(settings),
    degradations: degradations(settings),
  };
  if (parsed.gpuMig && parsed.vgpuType !== null) settings.fail(settings.at('gpuMig'), 'cannot be combined with vgpuType (a GPU is either in MIG mode or split into vGPUs)');
  if (parsed.vgpuType !== null && !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(parsed.vgpuType)) settings.fail(settings.at('vgpuType'), 'is not an mdev type name');
  settings.done();
  return parsed;
}

/** A number for every operation, or `{operation: number}` with the rest at the fallback. */
function perOperation(settings: DriverSettings, key: string, fallback: number, max: number, integer = true): Record<SimulatedOperation, number> {
  const raw = settings.raw(key);
  if (raw === undefined || typeof raw === 'number') {
    const single = new DriverSettings({ [key]: raw }, settings.path).number(key, fallback, 0, max, integer);
    return Object.fromEntries(SIMULATED_OPERATIONS.map((operation) => [operation, single])) as Record<SimulatedOperation, number>;
  }
  const nested = new DriverSettings(raw, settings.at(key));
  const values = Object.fromEntries(SIMULATED_OPERATIONS.map((operation) => [operation, nested.number(operation, fallback, 0, max, integer)]));
  nested.done();
  return values as Record<SimulatedOperation, number>;
}

function failNextCounts(settings: DriverSettings): Partial<Record<SimulatedOperation, number>> {
  const nested = new DriverSettings(settings.raw('failNext'), settings.at('failNext'));
  const counts = Object.fromEntries(SIMULATED_OPERATIONS.map((operation) => [operation, nested.number(operation, 0, 0, 1_000_000)]));
  nested.done();
  return counts;
}

function degradations(settings: DriverSettings): SimulatedDegradation[] {
  const raw = settings.raw('degradations') ?? [];
  if (!Array.isArray(raw)) settings.fail(settings.at('degradations'), 'must be a list');
  return raw.map((item: unknown, index: number) => {
    const entry = new DriverSettings(item, `${settings.at('degradations')}[${index}]`);
    const device = entry.string('device', '');
    if (!/^(fpga|gpu|nic)\d+$/.test(device)) entry.fail(entry.at('device'), 'must name a simulated device: fpga0, gpu1, nic0…');
    const health = entry.string('health', 'degraded');
    if (health !== 'degraded' && health !== 'failed') entry.fail(entry.at('health'), 'must be degraded or failed');
    const parsed = {
      device,
      fromCheck: entry.number('fromCheck', 1, 1, Number.MAX_SAFE_INTEGER),
      toCheck: entry.raw('toCheck') === undefined ? null : entry.number('toCheck', 1, 1, Number.MAX_SAFE_INTEGER),
      health: health as 'degraded' | 'failed',
      reason: entry.string('reason', `simulated ${health}`),
      ...causeOf(entry),
    };
    entry.done();
    return parsed;
  });
}

function causeOf(entry: DriverSettings): { cause?: DeviceHealthCause } {
  const raw = entry.raw('cause');
  if (raw === undefined) return {};
  const problem = healthCauseProblem(raw);
  if (problem) entry.fail(`${entry.at('cause')}${problem[0]}`, problem[1]);
  return { cause: normalizeHealthCause(raw as ReportedHealthCause) };
}
