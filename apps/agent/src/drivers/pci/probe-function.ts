import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { PciFunction } from '../../discovery/pci-function';
import type { JobEvidence, JobParams } from '../accelerator-driver';
import { DRIVER_ERROR_CODES, untouched } from '../driver-errors';

/** What a function whose link is down (or that fell off the bus) answers to every config read. */
const NO_DEVICE = 'ffff';

/**
 * A probe job on a sysfs function: reads the vendor and device id from its
 * PCI configuration space (`<function>/config`, the first four bytes, little
 * endian), which only a function that answers on the bus gives; the ids
 * cached in sysfs's `vendor` file would still read fine after the card
 * stopped answering. Evidence: `{pciAddress, vendorId, productId, driver,
 * instanceUuid?}` — `driver` tells whether an instance can have it (`vfio-pci`).
 * DRIVER.UNREACHABLE when config space is unreadable, all ones, or names
 * another device than discovery saw; nothing is changed either way.
 */
export async function probePciFunction(fn: PciFunction, params: JobParams): Promise<JobEvidence> {
  const ids = await readConfigIds(fn.path);
  const unreachable = (why: string) =>
    untouched(DRIVER_ERROR_CODES.unreachable, `${fn.address} is not reachable: ${why}`, { pciAddress: fn.address, driver: fn.driver });
  if (ids === null) throw unreachable('its PCI configuration space cannot be read');
  if (ids.vendorId === NO_DEVICE) throw unreachable('its configuration space reads all ones (link down or the device fell off the bus)');
  if (ids.vendorId !== fn.vendorId || ids.productId !== fn.productId) {
    throw unreachable(`configuration space names ${ids.vendorId}:${ids.productId}, discovery saw ${fn.vendorId}:${fn.productId}`);
  }
  const instanceUuid = typeof params.instanceUuid === 'string' ? { instanceUuid: params.instanceUuid } : {};
  return { pciAddress: fn.address, ...ids, driver: fn.driver, ...instanceUuid };
}

async function readConfigIds(path: string): Promise<{ vendorId: string; productId: string } | null> {
  const file = await open(join(path, 'config'), 'r').catch(() => null);
  if (file === null) return null;
  try {
    const { bytesRead, buffer } = await file.read(Buffer.alloc(4), 0, 4, 0);
    if (bytesRead < 4) return null;
    const hex = (offset: number) => buffer.readUInt16LE(offset).toString(16).padStart(4, '0');
    return { vendorId: hex(0), productId: hex(2) };
  } catch {
    return null;
  } finally {
    await file.close();
  }
}
