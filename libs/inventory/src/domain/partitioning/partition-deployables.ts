import type { PartitioningKind, ReportedAttachHandle, ReportedDeployable, ReportedPartition, ReportedPartitioning } from '../host-report';
import { attachHandleKey, attachHandleUuidOf, defaultDeployableName, deployableUuidOf } from '../identity';
import { roomToCarve } from './partition-layout';
import {
  carveRoomDeployableName,
  partitionDeployableName,
  partitionHandleKind,
  partitionResourceClass,
  partitionTraits,
} from './partition-naming';

/**
 * The deployables a partitionable device offers beside what its agent
 * reports (docs/partitions.md, "Placement"): one per carved partition (its
 * profile's resource class, one unit, its own attach handle) and one per
 * profile that offers the room left to carve it (as many units as still
 * fit, no handle: a bind there carves first). A device whose partitioning
 * is off offers neither.
 */
export function partitionDeployables(parentName: string, pciAddress: string, partitioning: ReportedPartitioning): ReportedDeployable[] {
  if (!partitioning.enabled) return [];
  const carved = partitioning.partitions.map((partition) => carvedDeployable(parentName, pciAddress, partitioning, partition));
  const room = roomToCarve(partitioning);
  const rooms = partitioning.kind === 'FPGA_REGION' ? [] : partitioning.profiles.map((profile) => ({
    name: carveRoomDeployableName(parentName, profile.name),
    resourceClass: partitionResourceClass(partitioning.kind, profile.name),
    count: room.get(profile.name) ?? 0,
    traits: partitionTraits(partitioning.kind, profile.name, null),
    attachHandles: [],
  }));
  return [...carved, ...rooms];
}

function carvedDeployable(
  parentName: string,
  pciAddress: string,
  partitioning: ReportedPartitioning,
  partition: ReportedPartition,
): ReportedDeployable {
  return {
    name: partitionDeployableName(parentName, partition.profile, partition.start),
    resourceClass: partitionResourceClass(partitioning.kind, partition.profile),
    count: 1,
    traits: partitionTraits(partitioning.kind, partition.profile, partition.handle),
    attachHandles: [partitionHandle(pciAddress, partitioning, partition)],
  };
}

/** The partition's attach handle: on the parent's PCI address, told apart by its own handle (and, for an mdev, its type and slot). */
export function partitionHandle(pciAddress: string, partitioning: ReportedPartitioning, partition: ReportedPartition): ReportedAttachHandle {
  const kind = partitionHandleKind(partitioning.kind);
  const mdev = kind === 'MDEV' ? { mdevType: partition.profile, slot: partition.start } : {};
  return { kind, address: pciAddress, ...mdev, partition: partition.handle };
}

/**
 * The uuids a partition will have once its host reports it (identities are
 * derived, so a bind can claim a partition it just carved before the next
 * report shows it): its deployable's, and its attach handle's.
 */
export function carvedPartitionIdentity(
  hostname: string,
  deviceUuid: string,
  pciAddress: string,
  kind: PartitioningKind,
  partition: ReportedPartition,
): { readonly deployableUuid: string; readonly handleUuid: string; readonly handle: ReportedAttachHandle } {
  const name = partitionDeployableName(defaultDeployableName(hostname, pciAddress), partition.profile, partition.start);
  const deployableUuid = deployableUuidOf(deviceUuid, name);
  const handle = partitionHandle(pciAddress, { kind, enabled: true, slices: 0, profiles: [], partitions: [] }, partition);
  return { deployableUuid, handleUuid: attachHandleUuidOf(deployableUuid, attachHandleKey(handle)), handle };
}
