/** A GPU as `nvidia-smi -L` lists it, with the MIG devices under it. */
export interface ListedGpu {
  readonly index: number;
  readonly name: string;
  readonly uuid: string;
  readonly migDevices: readonly ListedMigDevice[];
}

/** `MIG 1g.10gb Device 0: (UUID: MIG-…)`: the device index is the `<index>` of its `<mig_device>` in `nvidia-smi -q -x`. */
export interface ListedMigDevice {
  readonly profile: string;
  readonly index: number;
  readonly uuid: string;
}

const GPU_LINE = /^GPU\s+(\d+):\s*(.*?)\s*\(UUID:\s*(GPU-[^)\s]+)\)/;
const MIG_LINE = /^MIG\s+(\S+)\s+Device\s+(\d+):\s*\(UUID:\s*(MIG-[^)\s]+)\)/;

/** Reads `nvidia-smi -L`; a MIG line before any GPU line, and every other line, is ignored. */
export function parseNvidiaSmiList(text: string): ListedGpu[] {
  const gpus: { index: number; name: string; uuid: string; migDevices: ListedMigDevice[] }[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const gpu = GPU_LINE.exec(line);
    if (gpu) {
      gpus.push({ index: Number(gpu[1]), name: gpu[2], uuid: gpu[3], migDevices: [] });
      continue;
    }
    const mig = MIG_LINE.exec(line);
    if (mig && gpus.length > 0) gpus[gpus.length - 1].migDevices.push({ profile: mig[1], index: Number(mig[2]), uuid: mig[3] });
  }
  return gpus;
}
