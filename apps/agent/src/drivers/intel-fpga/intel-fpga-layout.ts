/**
 * Where Intel FPGA cards show their ids in sysfs, under the PCI function:
 * the upstream DFL driver (dfl-pci: Documentation/ABI/testing/
 * sysfs-class-fpga-region, sysfs-platform-dfl-port) and OPAE's older
 * out-of-tree intel-fpga driver, the layout Cyborg reads.
 */
const region = /^region\d+$/;

/** The PR region's interface id: what a green bitstream must be built against. */
export const INTERFACE_ID_LAYOUTS = [
  ['fpga_region', region, /^dfl-fme\.\d+$/, /^dfl-fme-region\.\d+$/, 'fpga_region', region, 'compat_id'],
  ['fpga', /^intel-fpga-dev\.\d+$/, /^intel-fpga-fme\.\d+$/, 'pr', 'interface_id'],
] as const;

/**
 * The partial-reconfiguration regions: under DFL, the FME's
 * `dfl-fme-region.N`, each an fpga_region (`/sys/class/fpga_region/regionM`)
 * behind its own fpga_bridge; under OPAE's intel-fpga driver, each port.
 */
export const PR_REGION_LAYOUTS = [
  ['fpga_region', region, /^dfl-fme\.\d+$/, /^dfl-fme-region\.\d+$/, 'fpga_region', region],
  ['fpga', /^intel-fpga-dev\.\d+$/, /^intel-fpga-port\.\d+$/],
] as const;

/** The AFU id of the function loaded in the port (a VF's, once SR-IOV hands the port to it). */
export const AFU_ID_LAYOUTS = [
  ['fpga_region', region, /^dfl-port\.\d+$/, 'afu_id'],
  ['fpga', /^intel-fpga-dev\.\d+$/, /^intel-fpga-port\.\d+$/, 'afu_id'],
] as const;

export interface IntelFpgaProduct {
  readonly model: string;
  /** The product part of `CUSTOM_FPGA_INTEL_<…>` (Cyborg's PAC_ARRIA10). */
  readonly trait: string;
  /** The product id its VFs carry. */
  readonly vfProductId: string;
}

/** PF product ids (vendor 8086) the driver manages. */
export const INTEL_FPGA_PRODUCTS: Readonly<Record<string, IntelFpgaProduct>> = {
  '09c4': { model: 'Intel PAC Arria 10 GX', trait: 'PAC_ARRIA10', vfProductId: '09c5' },
  '0b2b': { model: 'Intel PAC D5005', trait: 'PAC_D5005', vfProductId: '0b2c' },
  '0b30': { model: 'Intel FPGA PAC N3000', trait: 'PAC_N3000', vfProductId: '0b31' },
};
