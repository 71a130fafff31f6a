/**
 * One PCI function as sysfs shows it (Documentation/ABI/testing/sysfs-bus-pci):
 * what every driver's discovery starts from. Ids are 4 lower-case hex digits
 * without `0x`; the class is 6 (`030200`: base class, subclass, interface).
 */
export interface PciFunction {
  /** Canonical address (`0000:3b:00.0`). */
  readonly address: string;
  /** The function's real directory (sysfs entries under bus/pci/devices are links into devices/). */
  readonly path: string;
  readonly classCode: string;
  readonly vendorId: string;
  readonly productId: string;
  readonly subsystemVendorId: string | null;
  readonly subsystemProductId: string | null;
  /** The bound kernel driver (`nvidia`, `vfio-pci`), null when unbound. */
  readonly driver: string | null;
  /** null when the platform has no NUMA information (`-1`). */
  readonly numaNode: number | null;
  /** SR-IOV capability of a physical function; null when the function has none. */
  readonly sriov: { readonly totalVfs: number; readonly numVfs: number } | null;
  /** Addresses of the enabled VFs, in `virtfnN` order. */
  readonly virtualFunctions: readonly string[];
  /** The PF's address when this function is a VF. */
  readonly physicalFunction: string | null;
  /** `mdev_supported_types/<id>`: the mediated-device types the function can create. */
  readonly mdevTypes: readonly MdevType[];
  /** Existing mediated devices: `<function>/<uuid>/` directories. */
  readonly mdevs: readonly MdevInstance[];
  /** Network interfaces of a NIC function (`net/<name>`). */
  readonly netInterfaces: readonly string[];
  /** PCIe AER error totals (`aer_dev_fatal`, `aer_dev_nonfatal`), when the kernel exposes them. */
  readonly aer: { readonly fatal: number; readonly nonFatal: number } | null;
}

export interface MdevType {
  /** The directory name, e.g. `nvidia-35`: what `create-mdev` jobs name. */
  readonly id: string;
  /** Human name, e.g. `GRID T4-2B`. */
  readonly name: string | null;
  readonly availableInstances: number;
  /** `vfio-pci` for vGPU types. */
  readonly deviceApi: string | null;
}

export interface MdevInstance {
  readonly uuid: string;
  readonly type: string;
}

/** PCI base class 0x12: processing accelerators (Alveo, PAC cards). */
export const isProcessingAccelerator = (fn: PciFunction): boolean => fn.classCode.startsWith('12');