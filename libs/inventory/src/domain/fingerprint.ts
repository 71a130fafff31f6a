import { createHash } from 'node:crypto';
import type { ReportedDevice } from './host-report';
import { compareStrings } from './identity';

/**
 * Fingerprints let an unchanged report be recognised without deriving
 * uuids or diffing: a device's fingerprint covers everything reported about
 * it, in a fixed order, and works on a normalised reported device and on a
 * snapshot folded from events alike (a snapshot is a reported device plus
 * uuids, which are derived from the same content and so add nothing).
 * Written out field by field rather than with canonical JSON because it
 * runs for every device of every report (10,000 hosts every 60 s).
 */
export function deviceFingerprint(device: ReportedDevice): string {
  const text = JSON.stringify([
    device.type,
    device.vendorId,
    device.productId,
    device.subsystemVendorId ?? null,
    device.subsystemProductId ?? null,
    device.model,
    device.pciAddress,
    entries(device.boardInfo),
    device.vendorBoardInfo ?? null,
    device.driver ?? null,
    device.numaNode ?? null,
    device.capacity === undefined || device.capacity === null ? null : entries(device.capacity),
    device.deployables.map((deployable) => [
      deployable.name ?? null,
      deployable.resourceClass,
      deployable.count,
      deployable.traits,
      deployable.driverName ?? null,
      deployable.attachHandles.map((handle) => [
        handle.kind,
        handle.address,
        handle.physicalNetwork ?? null,
        handle.mdevType ?? null,
        handle.slot ?? null,
      ]),
    ]),
  ]);
  return sha256(text);
}

/** Fingerprint of a whole host from its devices' fingerprints, in PCI address order. */
export const hostFingerprint = (deviceFingerprints: readonly string[]): string => sha256(deviceFingerprints.join('\n'));

/** Map members in key order: a store may hand objects back with their keys reordered (PostgreSQL jsonb). */
function entries(map: Readonly<Record<string, unknown>>): unknown[] {
  return Object.keys(map)
    .sort(compareStrings)
    .map((key) => [key, map[key]]);
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('base64');
