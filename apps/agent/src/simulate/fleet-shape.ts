/** Most devices one simulated host can have: the simulated driver's limits (16 FPGAs, 16 GPUs, 8 NICs). */
export const MAX_DEVICES_PER_HOST = 40;

/** How many of each kind a simulated host carries. */
export interface HostShape {
  readonly fpgas: number;
  readonly gpus: number;
  readonly nics: number;
}

/**
 * `devices` split as a typical accelerator host: a quarter FPGAs, a quarter
 * NICs, the rest GPUs (8 → 2 FPGAs, 4 GPUs, 2 NICs), each kind within the
 * simulated driver's limits.
 */
export function hostShape(devices: number): HostShape {
  if (!Number.isInteger(devices) || devices < 0 || devices > MAX_DEVICES_PER_HOST) {
    throw new RangeError(`devices must be an integer between 0 and ${MAX_DEVICES_PER_HOST}`);
  }
  const nics = Math.min(8, Math.floor(devices / 4));
  const fpgas = Math.min(16, Math.floor(devices / 4));
  const gpus = devices - fpgas - nics;
  if (gpus <= 16) return { fpgas, gpus, nics };
  return { fpgas: fpgas + (gpus - 16), gpus: 16, nics };
}

/** `sim-00001` … : numbered from 1, zero-padded to at least five digits so names sort in order. */
export function simulatedHostname(index: number, hosts: number): string {
  return `sim-${String(index + 1).padStart(Math.max(5, String(hosts).length), '0')}`;
}
