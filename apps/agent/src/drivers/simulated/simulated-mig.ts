import { randomUUID } from 'node:crypto';
import { carvableSpans, type ReportedPartition, type ReportedPartitionProfile, type ReportedPartitioning } from '@ledger/inventory';

/**
 * The GPU instance profiles of an A100 80GB as `nvidia-smi mig -lgip` and
 * `-lgipp` list them: 8 memory slices, 7 compute slices; H100 and H200 have
 * the same shape with more memory per slice.
 */
export const SIMULATED_MIG_PROFILES: readonly ReportedPartitionProfile[] = [
  { name: '1g.10gb', profileId: 19, slices: 1, memoryMiB: 9856, computeSlices: 1, maxCount: 7, placements: [0, 1, 2, 3, 4, 5, 6] },
  { name: '1g.20gb', profileId: 15, slices: 2, memoryMiB: 19968, computeSlices: 1, maxCount: 4, placements: [0, 2, 4, 6] },
  { name: '2g.20gb', profileId: 14, slices: 2, memoryMiB: 19968, computeSlices: 2, maxCount: 3, placements: [0, 2, 4] },
  { name: '3g.40gb', profileId: 9, slices: 4, memoryMiB: 40192, computeSlices: 3, maxCount: 2, placements: [0, 4] },
  { name: '4g.40gb', profileId: 5, slices: 4, memoryMiB: 40192, computeSlices: 4, maxCount: 1, placements: [0] },
  { name: '7g.80gb', profileId: 0, slices: 8, memoryMiB: 80384, computeSlices: 7, maxCount: 1, placements: [0] },
];

/** MIG mode and the GPU instances (each with one compute instance) carved on one simulated GPU. */
export interface SimulatedMig {
  readonly partitions: (ReportedPartition & { readonly gpuInstanceId: number; readonly computeInstanceId: number })[];
}

export const emptyMig = (): SimulatedMig => ({ partitions: [] });

export const migPartitioning = (mig: SimulatedMig): ReportedPartitioning => ({
  kind: 'MIG',
  enabled: true,
  slices: 8,
  profiles: SIMULATED_MIG_PROFILES,
  partitions: [...mig.partitions].sort((a, b) => a.start - b.start),
});

/**
 * Where a GPU instance of `profile` can start, as `nvidia-smi mig -cgi`
 * would accept it: at `start` when that placement is free, else undefined
 * (the real tool answers "Insufficient Resources").
 */
export function migSpanAt(mig: SimulatedMig, profile: string, start: number): { start: number; slices: number } | undefined {
  const partitioning = migPartitioning(mig);
  const only = { ...partitioning, profiles: partitioning.profiles.map((candidate) => (candidate.name === profile ? { ...candidate, placements: [start] } : candidate)) };
  return carvableSpans(only, profile)[0];
}

/** Carves a GPU instance and its compute instance; MIG devices get a fresh UUID, as the driver gives them. */
export function carveMig(mig: SimulatedMig, profile: string, span: { start: number; slices: number }): SimulatedMig['partitions'][number] {
  const gpuInstanceId = Math.max(0, ...mig.partitions.map((partition) => partition.gpuInstanceId)) + 1;
  const partition = { profile, handle: `MIG-${randomUUID()}`, start: span.start, slices: span.slices, gpuInstanceId, computeInstanceId: 0 };
  mig.partitions.push(partition);
  return partition;
}
