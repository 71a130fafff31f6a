import type { AttachHandleKind, PartitioningKind } from '../host-report';

/**
 * Names a partition takes in Placement (docs/partitions.md, "Naming"). A MIG
 * profile is a resource class of its own, `CUSTOM_MIG_1G_10GB` for
 * `1g.10gb`: profiles are not interchangeable (memory and SMs differ), a
 * flavor asks for one as `resources:CUSTOM_MIG_1G_10GB=1`, and it reads as
 * Kubernetes' `nvidia.com/mig-1g.10gb`. A vGPU type stays Nova's `VGPU`
 * with the type as a trait (`CUSTOM_VGPU_NVIDIA_35`), as Nova's libvirt
 * driver offers mdev types; an FPGA region stays Cyborg's `FPGA`, with the
 * region as a trait (`CUSTOM_FPGA_REGION_<ID>`).
 */
export function partitionResourceClass(kind: PartitioningKind, profile: string): string {
  if (kind === 'MIG') return `CUSTOM_MIG_${placementToken(profile)}`;
  return kind === 'VGPU' ? 'VGPU' : 'FPGA';
}

/** The traits a partition's provider carries beyond the resource class (empty for MIG: the class says it all). */
export function partitionTraits(kind: PartitioningKind, profile: string, handle: string | null): string[] {
  if (kind === 'VGPU') return [`CUSTOM_VGPU_${placementToken(profile)}`];
  if (kind === 'FPGA_REGION' && handle !== null) return [`CUSTOM_FPGA_REGION_${placementToken(handle)}`];
  return [];
}

/** The attach handle kind of a partition: the MIG device, the mdev, the region. */
export const partitionHandleKind = (kind: PartitioningKind): AttachHandleKind =>
  kind === 'MIG' ? 'MIG' : kind === 'VGPU' ? 'MDEV' : 'REGION';

/** The provider of one carved partition: `<parent>_<profile>_<start>` (the start keeps it stable while the slot is carved). */
export const partitionDeployableName = (parentName: string, profile: string, start: number): string => `${parentName}_${profile}_${start}`;

/** The provider that offers room to carve `profile` on the parent. */
export const carveRoomDeployableName = (parentName: string, profile: string): string => `${parentName}_${profile}_carvable`;

/** The profile a carve-room provider offers, when `name` is one of the parent's carve rooms; undefined otherwise. */
export function carveRoomProfileOf(parentName: string, name: string): string | undefined {
  const prefix = `${parentName}_`;
  const suffix = '_carvable';
  if (!name.startsWith(prefix) || !name.endsWith(suffix) || name.length <= prefix.length + suffix.length) return undefined;
  return name.slice(prefix.length, name.length - suffix.length);
}

/** `1g.10gb+me` → `1G_10GB_ME`: what Placement allows in a custom class or trait name. */
export const placementToken = (text: string): string =>
  text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
