import { NAMESPACE_DNS, NAMESPACE_LEDGER, uuidV3, uuidV5 } from '@ledger/kernel';
import type { AttachHandleKind } from './host-report';

/**
 * Identities derived from what agents report, so a device keeps its uuid
 * across reports, agent restarts and ledger rebuilds.
 */
export const deviceUuidOf = (hostname: string, pciAddress: string): string =>
  uuidV5(NAMESPACE_LEDGER, `device/${hostname}/${pciAddress}`);

export const deployableUuidOf = (deviceUuid: string, name: string): string =>
  uuidV5(NAMESPACE_LEDGER, `deployable/${deviceUuid}/${name}`);

export const attachHandleUuidOf = (deployableUuid: string, handleKey: string): string =>
  uuidV5(NAMESPACE_LEDGER, `handle/${deployableUuid}/${handleKey}`);

/** Cyborg's resource provider uuid for a deployable: Python's `uuid3(NAMESPACE_DNS, name)`. */
export const resourceProviderUuidOf = (deployableName: string): string => uuidV3(NAMESPACE_DNS, deployableName);

/** Cyborg's default deployable (resource provider) name. */
export const defaultDeployableName = (hostname: string, pciAddress: string): string => `${hostname}_${pciAddress}`;

/** What tells one attach handle of a deployable from another. */
export interface AttachHandleIdentity {
  readonly kind: AttachHandleKind;
  readonly address: string;
  readonly mdevType?: string;
  readonly slot?: number;
  readonly partition?: string;
}

/**
 * `PCI/<bdf>`, `VF/<bdf>`, `MDEV/<parent bdf>/<mdev type>/<slot>`, or a
 * partition's `MIG/<parent bdf>/<MIG uuid>`, `REGION/<parent bdf>/<region>`:
 * a MIG device carved again in the same slot is a new handle.
 */
export function attachHandleKey(handle: AttachHandleIdentity): string {
  if (handle.kind === 'MDEV') return `MDEV/${handle.address}/${handle.mdevType}/${handle.slot ?? 0}`;
  if (handle.kind === 'MIG' || handle.kind === 'REGION') return `${handle.kind}/${handle.address}/${handle.partition}`;
  return `${handle.kind}/${handle.address}`;
}

/** Total order of handles within a deployable: kind, address, mdev type, slot. */
export function compareAttachHandles(a: AttachHandleIdentity, b: AttachHandleIdentity): number {
  return (
    compareStrings(a.kind, b.kind) ||
    compareStrings(a.address, b.address) ||
    compareStrings(a.mdevType ?? '', b.mdevType ?? '') ||
    (a.slot ?? 0) - (b.slot ?? 0) ||
    compareStrings(a.partition ?? '', b.partition ?? '')
  );
}

/** Code-unit order, independent of locale. */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
