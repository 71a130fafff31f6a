/** What a partitionable device can be carved into, and what is carved now (issue 26). */
export interface ReportedPartitioning {
  /** MIG: GPU instances of an NVIDIA GPU; VGPU: mdev types; FPGA_REGION: partial-reconfiguration regions. */
  readonly kind: 'MIG' | 'VGPU' | 'FPGA_REGION';
  /** MIG: MIG mode is on now (partitions can be carved); VGPU and FPGA_REGION: true. */
  readonly enabled: boolean;
  /** The parent's capacity in slices (MIG: memory slices, 8 on A100/H100/H200; FPGA: regions). */
  readonly slices: number;
  readonly profiles: readonly ReportedPartitionProfile[];
  /** Partitions that exist now. */
  readonly partitions: readonly ReportedPartition[];
}

export interface ReportedPartitionProfile {
  /** The tool's name: MIG `1g.10gb`, `1g.10gb+me`; vGPU `nvidia-35`; FPGA `region`. */
  readonly name: string;
  /** MIG: the GPU instance profile id `nvidia-smi mig -lgip` lists; absent elsewhere. */
  readonly profileId?: number;
  /** Slices of the parent one partition of this profile takes (MIG: memory slices). */
  readonly slices: number;
  readonly memoryMiB?: number;
  /** MIG: compute (SM) slices. */
  readonly computeSlices?: number;
  /** How many of it fit on the empty parent. */
  readonly maxCount: number;
  /** Slices where one may start (MIG placements, `nvidia-smi mig -lgipp`); absent: any start. */
  readonly placements?: readonly number[];
}

export interface ReportedPartition {
  readonly profile: string;
  /** The partition's own handle: MIG device UUID (`MIG-…`), mdev UUID, or the region id. */
  readonly handle: string;
  /** First slice and size in slices (MIG placement start:size). */
  readonly start: number;
  readonly slices: number;
  /** MIG: GPU instance id and compute instance id. */
  readonly gpuInstanceId?: number;
  readonly computeInstanceId?: number;
}
