import { join } from 'node:path';
import type { PciFunction } from '../../discovery/pci-function';
import type { SysfsReader } from '../../discovery/sysfs-reader';
import { DriverOperationError, type JobEvidence } from '../accelerator-driver';
import { DRIVER_ERROR_CODES, invalidParams, untouched } from '../driver-errors';

/**
 * Creates a vGPU: writes the mdev's UUID to the parent's
 * `mdev_supported_types/<type>/create` (Documentation/driver-api/vfio-
 * mediated-device.rst) and reads the new `<parent>/<uuid>` back. One that
 * already exists with that type is success: the job may be offered again.
 */
export async function createMdev(sysfs: SysfsReader, parent: PciFunction, mdevType: string, mdevUuid: string): Promise<JobEvidence> {
  const path = join(sysfs.functionPath(parent.address), mdevUuid);
  const existing = parent.mdevs.find((mdev) => mdev.uuid === mdevUuid);
  if (existing?.type === mdevType) return { mdevUuid, mdevType, path, changed: false };
  if (existing) throw untouched(DRIVER_ERROR_CODES.deviceBusy, `mdev ${mdevUuid} already exists on ${parent.address} as ${existing.type}`);
  const type = parent.mdevTypes.find((candidate) => candidate.id === mdevType);
  if (!type) {
    const offered = parent.mdevTypes.map((candidate) => candidate.id).join(', ') || 'none';
    throw invalidParams(`${parent.address} does not offer mdev type ${mdevType} (offers: ${offered})`);
  }
  if (type.availableInstances < 1) throw untouched(DRIVER_ERROR_CODES.noCapacity, `${parent.address} has no ${mdevType} instance left`);
  try {
    await sysfs.write(join(sysfs.functionPath(parent.address), 'mdev_supported_types', mdevType, 'create'), mdevUuid);
  } catch (error) {
    const state = (await exists(sysfs, parent.address, mdevUuid)) ? `mdev ${mdevUuid} exists` : 'unchanged';
    throw new DriverOperationError(DRIVER_ERROR_CODES.sysfsWriteFailed, `creating ${mdevType} mdev on ${parent.address} failed: ${message(error)}`, state);
  }
  if (!(await exists(sysfs, parent.address, mdevUuid))) {
    throw new DriverOperationError(DRIVER_ERROR_CODES.verifyFailed, `mdev ${mdevUuid} does not appear under ${parent.address} after create`, 'unchanged');
  }
  return { mdevUuid, mdevType, path, changed: true };
}

/** Removes a vGPU through its `remove` attribute. One that is already gone is success. */
export async function removeMdev(sysfs: SysfsReader, parent: PciFunction, mdevUuid: string): Promise<JobEvidence> {
  if (!parent.mdevs.some((mdev) => mdev.uuid === mdevUuid)) return { mdevUuid, changed: false };
  try {
    await sysfs.write(join(sysfs.functionPath(parent.address), mdevUuid, 'remove'), '1');
  } catch (error) {
    const state = (await exists(sysfs, parent.address, mdevUuid)) ? `mdev ${mdevUuid} still exists` : 'mdev removed';
    throw new DriverOperationError(DRIVER_ERROR_CODES.sysfsWriteFailed, `removing mdev ${mdevUuid} failed: ${message(error)}`, state);
  }
  if (await exists(sysfs, parent.address, mdevUuid)) {
    throw new DriverOperationError(DRIVER_ERROR_CODES.verifyFailed, `mdev ${mdevUuid} is still there after remove`, `mdev ${mdevUuid} still exists`);
  }
  return { mdevUuid, changed: true };
}

async function exists(sysfs: SysfsReader, parent: string, mdevUuid: string): Promise<boolean> {
  return (await sysfs.readFunction(parent))?.mdevs.some((mdev) => mdev.uuid === mdevUuid) ?? false;
}

const message = (error: unknown): string => (error as Error)?.message ?? String(error);
