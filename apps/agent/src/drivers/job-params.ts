import { isUuid } from '@ledger/kernel';
import { normalizePciAddress } from '../discovery/pci-address';
import type { JobParams } from './accelerator-driver';
import { DRIVER_ERROR_CODES, invalidParams, untouched } from './driver-errors';

/**
 * Readers of a job's params (docs/agent-protocol.md, "Jobs"). The ledger
 * checks them too, but a driver acts on hardware: it re-checks and refuses
 * with DRIVER.INVALID_PARAMS before touching anything.
 */
export function pciAddressParam(params: JobParams, name = 'pciAddress'): string {
  const value = params[name];
  const address = typeof value === 'string' ? normalizePciAddress(value) : undefined;
  if (address === undefined) throw invalidParams(`${name} must be a PCI address like 0000:3b:00.0 (got ${JSON.stringify(value)})`);
  return address;
}

export function uuidParam(params: JobParams, name: string): string {
  const value = params[name];
  if (!isUuid(value)) throw invalidParams(`${name} must be a UUID (got ${JSON.stringify(value)})`);
  return value.toLowerCase();
}

export function integerParam(params: JobParams, name: string, min: number, max: number): number {
  const value = params[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidParams(`${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(value)})`);
  }
  return value;
}

export function optionalIntegerParam(params: JobParams, name: string, min: number, max: number): number | undefined {
  return params[name] === undefined || params[name] === null ? undefined : integerParam(params, name, min, max);
}

export function nameParam(params: JobParams, name: string, pattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/): string {
  const value = params[name];
  if (typeof value !== 'string' || !pattern.test(value)) throw invalidParams(`${name} must be a name like nvidia-35 (got ${JSON.stringify(value)})`);
  return value;
}

/** A carve job's partition: its profile (`1g.10gb`, `1g.10gb+me`) and the slice it starts at (the parent holds at most 64). */
export function carveParams(params: JobParams): { readonly profile: string; readonly start: number } {
  return { profile: nameParam(params, 'profile', /^[A-Za-z0-9][A-Za-z0-9.+_-]{0,63}$/), start: integerParam(params, 'start', 0, 63) };
}

/** A destroy job's partition: its handle (a MIG device UUID, an mdev UUID, a region id). */
export function partitionHandleParam(params: JobParams): string {
  return nameParam(params, 'handle', /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/);
}

/** What a program job loads: a PR region (the default, as Cyborg programs) or the shell. */
export function programTargetParam(params: JobParams): 'region' | 'shell' {
  const target = params.target ?? 'region';
  if (target !== 'region' && target !== 'shell') throw invalidParams(`target must be shell or region (got ${JSON.stringify(target)})`);
  return target;
}

/** A real card's shell is a flash image that takes a cold reboot to load: its driver refuses a shell program before touching anything. */
export function refuseShellTarget(params: JobParams, driver: string): void {
  if (programTargetParam(params) === 'shell') {
    throw untouched(DRIVER_ERROR_CODES.targetUnsupported, `the ${driver} driver loads PR regions only: its shell is a flash update that needs a cold reboot`);
  }
}

export interface ImageParam {
  readonly url: string;
  /** Lower-case hex. */
  readonly sha256: string;
}

/** `image: {url, sha256}`: http(s) or file URL, 64 hex digits. */
export function imageParam(params: JobParams): ImageParam {
  const image = params.image as Record<string, unknown> | undefined;
  if (typeof image !== 'object' || image === null) throw invalidParams('image must be an object {url, sha256}');
  const { url, sha256 } = image;
  if (typeof url !== 'string' || !/^(https?|file):\/\//.test(url)) throw invalidParams(`image.url must be an http(s) or file URL (got ${JSON.stringify(url)})`);
  if (typeof sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(sha256)) throw invalidParams('image.sha256 must be 64 hex digits');
  return { url, sha256: sha256.toLowerCase() };
}

/** An attach handle a clean job names: its kind (`PCI`, `VF`, `MDEV`) and address (a PCI address, an mdev uuid). */
export interface CleanHandleParam {
  readonly uuid: string;
  readonly type: string;
  readonly address: string;
}

/** The handles a clean job resets (the ledger's `CleanParams.handles`); a PCI handle's address is normalised. */
export function cleanHandles(params: JobParams): CleanHandleParam[] {
  const handles = params.handles;
  if (!Array.isArray(handles) || handles.length === 0) throw invalidParams('handles must be a non-empty list of {uuid, type, address}');
  return handles.map((raw: unknown, index) => {
    const handle = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    if (typeof handle.type !== 'string' || typeof handle.address !== 'string') throw invalidParams(`handles[${index}] must have a type and an address`);
    const uuid = uuidParam(handle, 'uuid');
    if (handle.type === 'MDEV') return { uuid, type: handle.type, address: handle.address };
    return { uuid, type: handle.type, address: pciAddressParam(handle, 'address') };
  });
}
