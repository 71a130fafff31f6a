import { carveRoomProfileOf, partitionResourceClass } from './partition-naming';

/** A provider as capacity quota sees it: its name and class, and what its device measures. */
export interface CapacityProvider {
  /** The device's own deployable name (`<hostname>_<pci address>`), the prefix of its partitions' names. */
  readonly parentName: string;
  readonly name: string;
  readonly resourceClass: string;
  /** What the whole device measures (`{ memoryGiB: 80 }`). */
  readonly capacity: Readonly<Record<string, number>>;
}

/** A MIG profile's memory as NVIDIA names it: `1g.10gb`, `3g.40gb+me` → 10, 40 (GiB). */
const MIG_PROFILE_MEMORY = /^\d+g\.(\d+)gb(?:[+-].*)?$/;

/**
 * What a bind to `provider` holds of its device's capacity while bound
 * (docs/partitions.md, "Capacity"): a MIG partition, carved already or to
 * be carved from a room, its profile's memory (`1g.10gb` → `{memoryGiB:
 * 10}`, what the profile's name says and Kubernetes' `nvidia.com/mig-1g.10gb`
 * counts); any other provider its whole device's capacity. A vGPU type or an
 * FPGA region measures nothing of its own, so it stays charged as its
 * device, as before partitions.
 */
export function providerCapacity(provider: CapacityProvider): Readonly<Record<string, number>> {
  const profile = partitionProfileOf(provider.parentName, provider.name);
  if (profile === undefined || provider.resourceClass !== partitionResourceClass('MIG', profile)) return provider.capacity;
  const memoryGiB = MIG_PROFILE_MEMORY.exec(profile)?.[1];
  return memoryGiB === undefined ? provider.capacity : { memoryGiB: Number(memoryGiB) };
}

/** The partition profile a provider offers: a carved partition's (`<parent>_<profile>_<start>`) or a carve room's; undefined otherwise. */
export function partitionProfileOf(parentName: string, name: string): string | undefined {
  const room = carveRoomProfileOf(parentName, name);
  if (room !== undefined) return room;
  if (!name.startsWith(`${parentName}_`)) return undefined;
  return /^(.+)_\d+$/.exec(name.slice(parentName.length + 1))?.[1];
}
