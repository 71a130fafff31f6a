import type { DeviceType, ReportedDeployable, ReportedDevice, ReportedPartitioning } from '@ledger/inventory';
import type { PciFunction } from '../../discovery/pci-function';

export interface DeviceReportFields {
  readonly type: DeviceType;
  readonly model: string;
  /** Merged over `{ class }`. Keep it to facts that change only when the hardware does: a change here is an event. */
  readonly boardInfo?: Readonly<Record<string, string>>;
  readonly capacity?: Readonly<Record<string, number>>;
  readonly deployables: readonly ReportedDeployable[];
  /** MIG layout, FPGA regions (issue 26); absent for devices that cannot be partitioned or whose layout cannot be read now. */
  readonly partitioning?: ReportedPartitioning;
}

/** A ReportedDevice for the PCI function that identifies the device (its PF, or the management PF). */
export function pciDeviceReport(fn: PciFunction, fields: DeviceReportFields): ReportedDevice {
  return {
    type: fields.type,
    vendorId: fn.vendorId,
    productId: fn.productId,
    ...(fn.subsystemVendorId !== null ? { subsystemVendorId: fn.subsystemVendorId } : {}),
    ...(fn.subsystemProductId !== null ? { subsystemProductId: fn.subsystemProductId } : {}),
    model: fields.model,
    pciAddress: fn.address,
    boardInfo: { class: fn.classCode, ...fields.boardInfo },
    driver: fn.driver,
    numaNode: fn.numaNode,
    ...(fields.capacity !== undefined ? { capacity: fields.capacity } : {}),
    deployables: fields.deployables,
    ...(fields.partitioning !== undefined ? { partitioning: fields.partitioning } : {}),
  };
}

/** The VFs of a PF that sysfs actually shows (a VF link can point at a function the scan skipped). */
export function presentVfs(pf: PciFunction, byAddress: ReadonlyMap<string, PciFunction>): PciFunction[] {
  return pf.virtualFunctions.map((address) => byAddress.get(address)).filter((fn): fn is PciFunction => fn !== undefined);
}

export const indexByAddress = (functions: readonly PciFunction[]): Map<string, PciFunction> =>
  new Map(functions.map((fn) => [fn.address, fn]));
