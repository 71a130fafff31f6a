import type { ReportedDevice } from '@ledger/inventory';
import type { SimulatedDriver } from '../drivers/simulated/simulated.driver';

/** Most VFs a simulated PF takes (the simulated driver's SIMULATED_TOTAL_VFS). */
const MAX_VFS = 64;

/** What one churned device looks like in the inventory once the ledger has its report. */
export interface ExpectedDevice {
  readonly driver: string | null;
  /** The sum of its deployables' counts (VFs, or 1 for a PF handed out whole). */
  readonly deployableCount: number;
}

export interface DeviceChange {
  /** What changed: the VF count (so the deployables' counts), or the driver the device is bound to. */
  readonly kind: 'vfs' | 'driver';
  /** For people: `numVfs 4 → 6`, `driver nvidia → vfio-pci`. */
  readonly description: string;
  readonly expected: ExpectedDevice;
}

/**
 * Changes simulated devices the way a busy fleet does, through the
 * simulated driver's own operations so the next discovery reports it: an
 * FPGA's or NIC's VF count goes up by two and back down on its next turn;
 * a GPU is handed to an instance (bound to vfio-pci) and back. Two VFs,
 * not one, so a NIC going from none to some changes its count too (a PF
 * without VFs counts as one).
 */
export class DeviceChurn {
  /** VF counts to restore, by PF address. */
  private readonly raised = new Map<string, number>();

  constructor(private readonly driver: SimulatedDriver) {}

  /** Changes the device at `pciAddress`; undefined when it has nothing to change (a vGPU-only GPU). */
  async change(pciAddress: string): Promise<DeviceChange | undefined> {
    const before = await this.deviceAt(pciAddress);
    let description: string;
    let kind: DeviceChange['kind'];
    if (before.type === 'FPGA' || before.type === 'NIC') {
      kind = 'vfs';
      const current = handlesOf(before).filter((handle) => handle.kind === 'VF').length;
      const restore = this.raised.get(pciAddress);
      const numVfs = restore ?? (current + 2 <= MAX_VFS ? current + 2 : current - 2);
      await this.driver.configureVfs!({ pciAddress, numVfs });
      if (restore === undefined) this.raised.set(pciAddress, current);
      else this.raised.delete(pciAddress);
      description = `numVfs ${current} → ${numVfs}`;
    } else if (before.type === 'GPU' && handlesOf(before).some((handle) => handle.kind === 'PCI')) {
      kind = 'driver';
      const passedThrough = before.driver === 'vfio-pci';
      const evidence = passedThrough ? await this.driver.detach!({ pciAddress }) : await this.driver.attach!({ pciAddress });
      description = `driver ${before.driver} → ${String(evidence.driver)}`;
    } else {
      return undefined;
    }
    const after = await this.deviceAt(pciAddress);
    return { kind, description, expected: { driver: after.driver, deployableCount: after.deployables.reduce((sum, deployable) => sum + deployable.count, 0) } };
  }

  private async deviceAt(pciAddress: string): Promise<ReportedDevice> {
    const device = (await this.driver.discover()).find((candidate) => candidate.pciAddress === pciAddress);
    if (!device) throw new Error(`no simulated device at ${pciAddress}`);
    return device;
  }
}

const handlesOf = (device: ReportedDevice) => device.deployables.flatMap((deployable) => deployable.attachHandles);

/** `count` distinct integers from [0, total), drawn with `random` (Floyd's algorithm: O(count), no rejection loops). */
export function pickDistinct(total: number, count: number, random: () => number): number[] {
  const picked = new Set<number>();
  for (let j = total - Math.min(count, total); j < total; j++) {
    const candidate = Math.floor(random() * (j + 1));
    picked.add(picked.has(candidate) ? j : candidate);
  }
  return [...picked];
}
