import type { BoundAttachHandle } from './arq.events';

/** An attach handle as the inventory knows it. */
export interface InventoryAttachHandle {
  readonly uuid: string;
  /** MIG and REGION: a partition of the function at `address` (docs/partitions.md). */
  readonly kind: 'PCI' | 'VF' | 'MDEV' | 'MIG' | 'REGION';
  /** PCI address `dddd:bb:dd.f`; for an MDEV, of its parent function. */
  readonly address: string;
  readonly physicalNetwork: string | null;
  readonly mdevType: string | null;
  readonly slot: number | null;
  /** A partition's own handle (MIG device UUID, mdev UUID, region id); null (or absent, from older callers) on other handles. */
  readonly partition?: string | null;
}

const PCI_ADDRESS = /^([0-9a-f]{4}):([0-9a-f]{2}):([0-9a-f]{2})\.([0-7])$/i;

/**
 * What Nova reads from a bound request (CYBORG-V2.md §1.4, §8.7): VFs and
 * whole functions are both `PCI` to Nova's libvirt driver; an MDEV carries
 * its type and a `vgpu_mark` naming the instance slot (`nvidia-35_0`).
 * A MIG device or an FPGA region is `PCI` too, at its parent's address: what
 * Nova's libvirt driver can pass through is the parent function. The
 * partition's own handle rides beside it, in keys Nova ignores and a
 * libvirt hook or the guest's driver reads (docs/partitions.md,
 * "Attaching"): `mig_device_uuid`, `region_id`, and for an mdev
 * `mdev_uuid` (Cyborg's mdev uuid is the handle's; ours is the agent's).
 */
export function boundAttachHandle(handle: InventoryAttachHandle): BoundAttachHandle {
  const match = PCI_ADDRESS.exec(handle.address);
  if (!match) throw new Error(`attach handle ${handle.uuid} has no PCI address: ${handle.address}`);
  const [, domain, bus, device, fn] = match;
  const info: Record<string, string> = { domain: domain.toLowerCase(), bus: bus.toLowerCase(), device: device.toLowerCase(), function: fn };
  if (handle.physicalNetwork) info.physical_network = handle.physicalNetwork;
  const own = handle.partition ? { [PARTITION_INFO_KEY[handle.kind]]: handle.partition } : {};
  if (handle.kind === 'MDEV') {
    const type = handle.mdevType ?? '';
    return { uuid: handle.uuid, type: 'MDEV', info: { ...info, asked_type: type, vgpu_mark: `${type}_${handle.slot ?? 0}`, ...own } };
  }
  return { uuid: handle.uuid, type: 'PCI', info: { ...info, ...own } };
}

/** The attach_handle_info key of a partition's own handle, by handle kind (PCI and VF handles are no partition). */
const PARTITION_INFO_KEY: Readonly<Record<InventoryAttachHandle['kind'], string>> = {
  MIG: 'mig_device_uuid',
  MDEV: 'mdev_uuid',
  REGION: 'region_id',
  PCI: 'partition',
  VF: 'partition',
};
