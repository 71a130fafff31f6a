import type { RunCommand } from '../../run-command';
import { runNvidiaSmi, type NvidiaSmiRun } from '../nvidia-smi';
import {
  parseComputeInstances,
  parseGpuInstancePlacements,
  parseGpuInstanceProfiles,
  parseGpuInstances,
  type ComputeInstanceRow,
  type GpuInstancePlacementRow,
  type GpuInstanceProfileRow,
  type GpuInstanceRow,
} from './mig-listings';
import { parseNvidiaSmiList, type ListedMigDevice } from './nvidia-smi-list';
import { parseNvidiaSmiXml, type XmlMigDevice } from './nvidia-smi-xml';

/** Everything nvidia-smi says about one GPU's MIG layout, its listings narrowed to that GPU. */
export interface MigGpuLayout {
  readonly pciAddress: string;
  readonly uuid: string | null;
  readonly migCurrent: string | null;
  readonly migPending: string | null;
  readonly profiles: readonly GpuInstanceProfileRow[];
  readonly placements: readonly GpuInstancePlacementRow[];
  readonly gpuInstances: readonly GpuInstanceRow[];
  readonly computeInstances: readonly ComputeInstanceRow[];
  /** `nvidia-smi -q -x`: which GPU and compute instance each MIG device index is. */
  readonly migDevices: readonly XmlMigDevice[];
  /** `nvidia-smi -L`: each MIG device index's UUID. */
  readonly migUuids: readonly ListedMigDevice[];
}

export type MigLayoutReading =
  | { readonly status: 'absent' }
  | { readonly status: 'failed'; readonly reason: string }
  | { readonly status: 'ok'; readonly gpus: ReadonlyMap<string, MigGpuLayout> };

export const MIG_LISTINGS = {
  xml: ['-q', '-x'],
  list: ['-L'],
  profiles: ['mig', '-lgip'],
  placements: ['mig', '-lgipp'],
  gpuInstances: ['mig', '-lgi'],
  computeInstances: ['mig', '-lci'],
} as const;

/**
 * Reads the MIG layout of every GPU: `-q -x` for the modes, and only when
 * some GPU has MIG on, the listings of all GPUs at once (six runs, not six
 * per GPU). A listing that fails fails the whole reading: a layout with a
 * listing missing would report carved partitions as gone.
 */
export async function readMigLayouts(runCommand: RunCommand, path: string, timeoutMs: number): Promise<MigLayoutReading> {
  const run = (args: readonly string[]) => runNvidiaSmi(runCommand, path, args, timeoutMs);
  const xml = await run(MIG_LISTINGS.xml);
  if (xml.status !== 'ok') return xml.status === 'absent' ? xml : { status: 'failed', reason: xml.reason };
  const modes = parseNvidiaSmiXml(xml.stdout);
  const anyEnabled = [...modes.values()].some((gpu) => gpu.migCurrent === 'Enabled');
  const listings = anyEnabled
    ? await Promise.all([MIG_LISTINGS.list, MIG_LISTINGS.profiles, MIG_LISTINGS.placements, MIG_LISTINGS.gpuInstances, MIG_LISTINGS.computeInstances].map(run))
    : ['', '', '', '', ''].map((stdout): NvidiaSmiRun => ({ status: 'ok', stdout }));
  const failed = listings.find((listing) => listing.status !== 'ok' && !saysNoneFound(listing));
  if (failed) return { status: 'failed', reason: failed.status === 'failed' ? failed.reason : 'nvidia-smi disappeared' };
  const [list, profiles, placements, gpuInstances, computeInstances] = listings.map(listingText);
  const indexByUuid = new Map(parseNvidiaSmiList(list).map((gpu) => [gpu.uuid, gpu]));
  const parsed = {
    profiles: parseGpuInstanceProfiles(profiles),
    placements: parseGpuInstancePlacements(placements),
    gpuInstances: parseGpuInstances(gpuInstances),
    computeInstances: parseComputeInstances(computeInstances),
  };
  const gpus = new Map<string, MigGpuLayout>();
  for (const gpu of modes.values()) {
    const listed = gpu.uuid !== null ? indexByUuid.get(gpu.uuid) : undefined;
    if (gpu.migCurrent === 'Enabled' && !listed) return { status: 'failed', reason: `nvidia-smi -L does not list the MIG GPU at ${gpu.pciAddress}` };
    const mine = <T extends { readonly gpu: number }>(rows: readonly T[]) => (listed ? rows.filter((row) => row.gpu === listed.index) : []);
    gpus.set(gpu.pciAddress, {
      pciAddress: gpu.pciAddress,
      uuid: gpu.uuid,
      migCurrent: gpu.migCurrent,
      migPending: gpu.migPending,
      profiles: mine(parsed.profiles),
      placements: mine(parsed.placements),
      gpuInstances: mine(parsed.gpuInstances),
      computeInstances: mine(parsed.computeInstances),
      migDevices: gpu.migDevices,
      migUuids: listed?.migDevices ?? [],
    });
  }
  return { status: 'ok', gpus };
}

/** `No GPU instances found: Not Found`, `No MIG-enabled devices found.`: an empty listing, whatever the exit status. */
const saysNoneFound = (run: NvidiaSmiRun): boolean => run.status === 'failed' && /^\s*No .+ found/m.test(run.output);

const listingText = (run: NvidiaSmiRun): string => (run.status === 'ok' ? run.stdout : '');
