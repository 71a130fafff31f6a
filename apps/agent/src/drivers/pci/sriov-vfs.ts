import { join } from 'node:path';
import type { PciFunction } from '../../discovery/pci-function';
import type { SysfsReader } from '../../discovery/sysfs-reader';
import { DriverOperationError, type JobEvidence } from '../accelerator-driver';
import { DRIVER_ERROR_CODES, invalidParams, untouched } from '../driver-errors';
import { VFIO_PCI } from './vfio-binding';

/**
 * Sets a PF's number of VFs through `sriov_numvfs`: 0 first, then N, as the
 * kernel requires (it refuses N→M with EBUSY), and reads it back. The
 * count it already has is success without a write (a redelivered job must
 * not tear down VFs). VFs on vfio-pci belong to instances: changing the
 * count would destroy them, so that is refused. A failed write puts the
 * previous count back where it can.
 */
export async function configureSriovVfs(sysfs: SysfsReader, pf: PciFunction, numVfs: number): Promise<JobEvidence> {
  if (pf.sriov === null) throw invalidParams(`${pf.address} is not SR-IOV capable (no sriov_totalvfs)`);
  if (numVfs > pf.sriov.totalVfs) throw invalidParams(`numVfs ${numVfs} exceeds ${pf.address}'s sriov_totalvfs ${pf.sriov.totalVfs}`);
  const previous = pf.sriov.numVfs;
  if (previous === numVfs) return { numVfs, previousNumVfs: previous, changed: false };
  const held = [];
  for (const address of pf.virtualFunctions) if ((await sysfs.readFunction(address))?.driver === VFIO_PCI) held.push(address);
  if (held.length > 0) throw untouched(DRIVER_ERROR_CODES.deviceBusy, `VF(s) ${held.join(', ')} of ${pf.address} are bound to vfio-pci (passed through); detach them first`);

  const path = join(sysfs.functionPath(pf.address), 'sriov_numvfs');
  try {
    if (previous !== 0) await sysfs.write(path, '0');
    if (numVfs !== 0) await sysfs.write(path, String(numVfs));
  } catch (error) {
    const restored = await restore(sysfs, pf.address, path, previous);
    throw new DriverOperationError(
      DRIVER_ERROR_CODES.sysfsWriteFailed,
      `setting ${pf.address}'s sriov_numvfs to ${numVfs} failed: ${(error as Error)?.message ?? error}`,
      restored === previous ? `${restored} VF(s) (previous count restored)` : `${restored ?? 'unknown'} VF(s)`,
      { numVfs: restored, previousNumVfs: previous },
    );
  }
  const readBack = await currentNumVfs(sysfs, pf.address);
  if (readBack !== numVfs) {
    throw new DriverOperationError(DRIVER_ERROR_CODES.verifyFailed, `sriov_numvfs of ${pf.address} reads ${readBack} after writing ${numVfs}`, `${readBack ?? 'unknown'} VF(s)`, {
      numVfs: readBack,
      previousNumVfs: previous,
    });
  }
  return { numVfs, previousNumVfs: previous, changed: true };
}

async function restore(sysfs: SysfsReader, address: string, path: string, previous: number): Promise<number | null> {
  const now = await currentNumVfs(sysfs, address);
  if (now !== previous) {
    await sysfs.write(path, '0').catch(() => undefined);
    if (previous !== 0) await sysfs.write(path, String(previous)).catch(() => undefined);
  }
  return currentNumVfs(sysfs, address);
}

async function currentNumVfs(sysfs: SysfsReader, address: string): Promise<number | null> {
  return (await sysfs.readFunction(address))?.sriov?.numVfs ?? null;
}
