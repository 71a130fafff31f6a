import { createHash } from 'node:crypto';
import type { ReportedDevice, ReportedPartitioning } from './host-report';
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
    device.partitioning === undefined ? null : partitioningFacts(device.partitioning),
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
        handle.partition ?? null,
      ]),
    ]),
  ]);
  return sha256(text);
}

/** The partitioning member by member in a fixed order (a stored copy may have its keys reordered). */
function partitioningFacts(partitioning: ReportedPartitioning): unknown[] {
  return [
    partitioning.kind,
    partitioning.enabled,
    partitioning.slices,
    partitioning.profiles.map((profile) => [
      profile.name,
      profile.profileId ?? null,
      profile.slices,
      profile.memoryMiB ?? null,
      profile.computeSlices ?? null,
      profile.maxCount,
      profile.placements ?? null,
    ]),
    partitioning.partitions.map((partition) => [
      partition.profile,
      partition.handle,
      partition.start,
      partition.slices,
      partition.gpuInstanceId ?? null,
      partition.computeInstanceId ?? null,
    ]),
  ];
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
