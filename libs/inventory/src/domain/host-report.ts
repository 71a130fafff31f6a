/**
 * What an agent reports: the full picture of its host's accelerators. The
 * ledger diffs it against what it knows (see report-diff.ts).
 */
export const DEVICE_TYPES = ['GPU', 'FPGA', 'DPU', 'NIC', 'QAT', 'NPU'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

export const ATTACH_HANDLE_KINDS = ['PCI', 'VF', 'MDEV'] as const;
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
  readonly deployables: readonly ReportedDeployable[];
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
}
