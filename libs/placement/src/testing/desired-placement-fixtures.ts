import { NAMESPACE_DNS, uuidV3 } from '@ledger/kernel';
import { type DesiredHostPlacement, type DesiredProvider, OWNER_TRAIT } from '../domain/desired-placement';

export interface DeviceSpec {
  readonly pciAddress: string;
  readonly resourceClass?: string;
  readonly total?: number;
  readonly disabled?: boolean;
  /** Besides OWNER_CYBORG. */
  readonly traits?: readonly string[];
}

/** A desired provider named and identified as Cyborg does: `<host>_<pci address>`, uuid3(NAMESPACE_DNS, name). */
export function desiredDevice(hostname: string, device: DeviceSpec): DesiredProvider {
  const name = `${hostname}_${device.pciAddress}`;
  const total = device.total ?? 1;
  return {
    uuid: uuidV3(NAMESPACE_DNS, name),
    name,
    deviceUuid: uuidV3(NAMESPACE_DNS, `device:${name}`),
    deployableUuid: uuidV3(NAMESPACE_DNS, `deployable:${name}`),
    resourceClass: device.resourceClass ?? 'FPGA',
    total,
    reserved: device.disabled ? total : 0,
    maxUnit: total,
    traits: [...new Set([OWNER_TRAIT, ...(device.traits ?? ['CUSTOM_FPGA_INTEL'])])].sort(),
    reservedBecause: device.disabled ? ['disabled'] : [],
  };
}

export function desiredHost(hostname: string, position: number, devices: readonly DeviceSpec[]): DesiredHostPlacement {
  return { hostname, position, providers: devices.map((device) => desiredDevice(hostname, device)).sort((a, b) => a.name.localeCompare(b.name)) };
}
