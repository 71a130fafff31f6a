import { join } from 'node:path';
import type { PciFunction } from '../../discovery/pci-function';
import type { SysfsReader } from '../../discovery/sysfs-reader';
import { DriverOperationError, type JobEvidence } from '../accelerator-driver';
import { DRIVER_ERROR_CODES, untouched } from '../driver-errors';

export const VFIO_PCI = 'vfio-pci';

/**
 * Hands a function to vfio-pci for passthrough, the way the kernel wants it
 * (Documentation/ABI/testing/sysfs-bus-pci, driver_override): set
 * `driver_override`, unbind the host driver, ask `drivers_probe`, then read
 * the binding back. Already on vfio-pci is success (a job offered again
 * after an agent restart). If vfio-pci does not take it, the host driver
 * is put back and the error says where the function ended up.
 */
export async function bindToVfio(sysfs: SysfsReader, fn: PciFunction): Promise<JobEvidence> {
  if (fn.driver === VFIO_PCI) return { driver: VFIO_PCI, previousDriver: VFIO_PCI, changed: false };
  if (fn.mdevs.length > 0) {
    throw untouched(DRIVER_ERROR_CODES.deviceBusy, `${fn.address} has ${fn.mdevs.length} mdev(s); remove them before passing the function through`);
  }
  const previousDriver = fn.driver;
  try {
    await sysfs.write(overridePath(sysfs, fn.address), VFIO_PCI);
    if (previousDriver !== null) await sysfs.write(join(sysfs.functionPath(fn.address), 'driver', 'unbind'), fn.address);
    await sysfs.write(probePath(sysfs), fn.address);
  } catch (error) {
    return restoreAfter(sysfs, fn.address, previousDriver, DRIVER_ERROR_CODES.sysfsWriteFailed, `binding ${fn.address} to vfio-pci failed: ${message(error)}`);
  }
  const bound = await driverOf(sysfs, fn.address);
  if (bound === VFIO_PCI) return { driver: VFIO_PCI, previousDriver, changed: true };
  return restoreAfter(sysfs, fn.address, previousDriver, DRIVER_ERROR_CODES.verifyFailed, `vfio-pci did not take ${fn.address} (bound: ${bound ?? 'none'})`);
}

/**
 * Gives a function back to its host driver: clear `driver_override`,
 * unbind from vfio-pci, `drivers_probe` (the kernel picks the driver by id).
 * Not on vfio-pci is success. A function left with no driver is reported
 * as such: it is out of any instance's reach, which is the safe side.
 */
export async function releaseFromVfio(sysfs: SysfsReader, fn: PciFunction): Promise<JobEvidence> {
  if (fn.driver !== VFIO_PCI) return { driver: fn.driver, changed: false };
  try {
    await sysfs.write(overridePath(sysfs, fn.address), '\n');
    await sysfs.write(join(sysfs.functionPath(fn.address), 'driver', 'unbind'), fn.address);
    await sysfs.write(probePath(sysfs), fn.address);
  } catch (error) {
    const now = await driverOf(sysfs, fn.address);
    throw new DriverOperationError(DRIVER_ERROR_CODES.sysfsWriteFailed, `releasing ${fn.address} from vfio-pci failed: ${message(error)}`, boundState(now), {
      driver: now,
    });
  }
  const bound = await driverOf(sysfs, fn.address);
  if (bound !== null && bound !== VFIO_PCI) return { driver: bound, changed: true };
  throw new DriverOperationError(DRIVER_ERROR_CODES.verifyFailed, `no host driver took ${fn.address} back`, boundState(bound), { driver: bound });
}

async function restoreAfter(sysfs: SysfsReader, address: string, previousDriver: string | null, code: string, problem: string): Promise<never> {
  const attempts = [
    () => sysfs.write(overridePath(sysfs, address), '\n'),
    async () => {
      const now = await driverOf(sysfs, address);
      if (now !== null && now !== previousDriver) await sysfs.write(join(sysfs.functionPath(address), 'driver', 'unbind'), address);
    },
    () => sysfs.write(probePath(sysfs), address),
  ];
  for (const attempt of attempts) await attempt().catch(() => undefined);
  const now = await driverOf(sysfs, address);
  const state = now === previousDriver ? `${boundState(now)} (previous driver restored)` : boundState(now);
  throw new DriverOperationError(code, problem, state, { driver: now, previousDriver });
}

async function driverOf(sysfs: SysfsReader, address: string): Promise<string | null> {
  return (await sysfs.readFunction(address))?.driver ?? null;
}

const boundState = (driver: string | null): string => (driver === null ? 'bound to no driver' : `bound to ${driver}`);
const overridePath = (sysfs: SysfsReader, address: string) => join(sysfs.functionPath(address), 'driver_override');
const probePath = (sysfs: SysfsReader) => join(sysfs.root, 'bus', 'pci', 'drivers_probe');
const message = (error: unknown): string => (error as Error)?.message ?? String(error);
