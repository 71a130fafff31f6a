/**
 * The drivers an agent can enable (apps/agent/src/drivers). `simulated` is
 * for tests and demos and never on by default.
 */
export const DRIVER_NAMES = ['nvidia-gpu', 'intel-fpga', 'xilinx-fpga', 'intel-qat', 'sriov-nic', 'generic-pci', 'simulated'] as const;
export type DriverName = (typeof DRIVER_NAMES)[number];
