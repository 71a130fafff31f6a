import type { MigGpuLayout } from './mig-layout';
import type { ReportedPartition, ReportedPartitionProfile, ReportedPartitioning } from '@ledger/inventory';

/**
 * A MIG-capable GPU's layout in the report's shape. Profiles and their
 * placements come from `-lgip`/`-lgipp` (known only while MIG is on); a
 * partition is a GPU instance, its handle the MIG device UUID of its first
 * compute instance. A GPU instance without a compute instance (made by hand
 * without `-C`) has no MIG device: it is reported as `gi-<id>` so its
 * slices still count and it can be destroyed.
 */
export function migPartitioning(layout: MigGpuLayout, model: MigModel): ReportedPartitioning {
  const { migSlices } = model;
  if (layout.migCurrent !== 'Enabled') return { kind: 'MIG', enabled: false, slices: migSlices, profiles: [], partitions: [] };
  return { kind: 'MIG', enabled: true, slices: migSlices, profiles: migProfiles(layout, model), partitions: migPartitions(layout) };
}

/** What the model table knows of a MIG-capable GPU: its memory slices and nominal memory. */
export interface MigModel {
  readonly migSlices: number;
  readonly memoryGiB: number;
}

function migProfiles(layout: MigGpuLayout, { migSlices, memoryGiB }: MigModel): ReportedPartitionProfile[] {
  return layout.profiles.map((profile) => {
    const placement = layout.placements.find((candidate) => candidate.profileId === profile.profileId);
    const computeSlices = /^(\d+)g\./.exec(profile.name)?.[1];
    return {
      name: profile.name,
      profileId: profile.profileId,
      // Without -lgipp (older drivers), its share of the GPU's memory: each slice holds 1/migSlices of it, less the driver's reserve.
      slices: placement?.size ?? Math.max(1, Math.round((profile.memoryGiB / memoryGiB) * migSlices)),
      memoryMiB: Math.round(profile.memoryGiB * 1024),
      ...(computeSlices !== undefined ? { computeSlices: Number(computeSlices) } : {}),
      maxCount: profile.total,
      ...(placement ? { placements: placement.starts } : {}),
    };
  });
}

function migPartitions(layout: MigGpuLayout): ReportedPartition[] {
  return [...layout.gpuInstances]
    .sort((a, b) => a.start - b.start || a.gpuInstanceId - b.gpuInstanceId)
    .map((gi) => {
      const computeInstance = layout.computeInstances
        .filter((ci) => ci.gpuInstanceId === gi.gpuInstanceId)
        .sort((a, b) => a.computeInstanceId - b.computeInstanceId)[0];
      const handle = computeInstance && migDeviceUuid(layout, gi.gpuInstanceId, computeInstance.computeInstanceId);
      return {
        profile: gi.name,
        handle: handle ?? `gi-${gi.gpuInstanceId}`,
        start: gi.start,
        slices: gi.size,
        gpuInstanceId: gi.gpuInstanceId,
        ...(computeInstance ? { computeInstanceId: computeInstance.computeInstanceId } : {}),
      };
    });
}

/** The MIG device of a GPU and compute instance: its index from `-q -x`, its UUID from `-L`. */
export function migDeviceUuid(layout: MigGpuLayout, gpuInstanceId: number, computeInstanceId: number): string | undefined {
  const device = layout.migDevices.find((candidate) => candidate.gpuInstanceId === gpuInstanceId && candidate.computeInstanceId === computeInstanceId);
  return device && layout.migUuids.find((listed) => listed.index === device.index)?.uuid;
}
