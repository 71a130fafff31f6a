/**
 * What an agent reports: the full picture of its host's accelerators. The
 * ledger diffs it against what it knows (see report-diff.ts).
 */
export const DEVICE_TYPES = ['GPU', 'FPGA', 'DPU', 'NIC', 'QAT', 'NPU'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

/**
 * `MIG` (a MIG device, by its `MIG-…` UUID) and `REGION` (an FPGA
 * partial-reconfiguration region, by its id) are handles of partitions: the
 * ledger derives them from `partitioning`, an agent never reports them in a
 * deployable (docs/partitions.md).
 */
export const ATTACH_HANDLE_KINDS = ['PCI', 'VF', 'MDEV', 'MIG', 'REGION'] as const;
export type AttachHandleKind = (typeof ATTACH_HANDLE_KINDS)[number];

/** Placement's standard resource classes a deployable may use; anything else must be `CUSTOM_*`. */
export const STANDARD_RESOURCE_CLASSES = ['FPGA', 'PGPU', 'VGPU'] as const;

/** Size limits of one report: beyond them the report is refused with INVENTORY.REPORT_TOO_LARGE (413). */
export const HOST_REPORT_LIMITS = {
  devicesPerHost: 256,
  deployablesPerDevice: 64,
  attachHandlesPerDeployable: 4096,
  traitsPerDeployable: 128,
  boardInfoEntries: 64,
  capacityEntries: 32,
  partitionProfilesPerDevice: 64,
  partitionsPerDevice: 128,
  placementsPerProfile: 64,
} as const;

export interface HostReport {
  readonly hostname: string;
  readonly devices: readonly ReportedDevice[];
}

export interface ReportedDevice {
  readonly type: DeviceType;
  /** PCI vendor id, 4 hex digits (`10de`); normalised to lower case. */
  readonly vendorId: string;
  readonly productId: string;
  readonly subsystemVendorId?: string;
  readonly subsystemProductId?: string;
  readonly model: string;
  /** PCI address of the management function (`0000:3b:00.0`): the device's identity on its host. */
  readonly pciAddress: string;
  readonly boardInfo: Readonly<Record<string, string>>;
  readonly vendorBoardInfo?: string;
  readonly driver: string | null;
  readonly numaNode: number | null;
  /** Measured sizes, e.g. `{ memoryGiB: 80 }` (used by quota). */
  readonly capacity?: Readonly<Record<string, number>>;
  /** What the device can be carved into and what is carved now (absent: not partitionable). */
  readonly partitioning?: ReportedPartitioning;
  readonly deployables: readonly ReportedDeployable[];
}

export const PARTITIONING_KINDS = ['MIG', 'VGPU', 'FPGA_REGION'] as const;
export type PartitioningKind = (typeof PARTITIONING_KINDS)[number];

/** What a partitionable device can be carved into, and what is carved now (issue 26). */
export interface ReportedPartitioning {
  /** MIG: GPU instances of an NVIDIA GPU; VGPU: mdev types; FPGA_REGION: partial-reconfiguration regions. */
  readonly kind: PartitioningKind;
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

export interface ReportedDeployable {
  /** The Placement provider name; defaults to `<hostname>_<pciAddress>` as in Cyborg. */
  readonly name?: string;
  readonly resourceClass: string;
  readonly count: number;
  readonly traits: readonly string[];
  readonly driverName?: string;
  readonly attachHandles: readonly ReportedAttachHandle[];
}

export interface ReportedAttachHandle {
  readonly kind: AttachHandleKind;
  /** PCI address of the function; for MDEV, of the parent function. */
  readonly address: string;
  readonly physicalNetwork?: string;
  /** Required for MDEV (e.g. `nvidia-35`), refused otherwise. */
  readonly mdevType?: string;
  /** Instance index among the MDEVs of one type on one parent (default 0). */
  readonly slot?: number;
  /** A partition's own handle (MIG device UUID, mdev UUID, region id); only on handles derived from `partitioning`. */
  readonly partition?: string;
}
