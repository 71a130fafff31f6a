import { normalizePciAddress } from '../../discovery/pci-address';
import { DriverSettings } from '../driver-settings';

export interface SriovNicSettings {
  /** PF → physical network: by PCI address (`0000:af:00.0`) or interface name (`ens1f0`). Cyborg's `[x710_static] physical_device_mappings`. */
  readonly physicalNetworks: Readonly<Record<string, string>>;
  /** Report PFs without a mapping too (false: they are usually the host's own uplinks, not for instances). */
  readonly reportUnmapped: boolean;
}

export function parseSriovNicSettings(raw: unknown): SriovNicSettings {
  const settings: DriverSettings = new DriverSettings(raw, 'sriov-nic');
  const physicalNetworks: Record<string, string> = {};
  for (const [key, physnet] of Object.entries(settings.stringMap('physicalNetworks'))) {
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(physnet)) settings.fail(`${settings.at('physicalNetworks')}.${key}`, `"${physnet}" is not a physical network name`);
    physicalNetworks[normalizePciAddress(key) ?? key] = physnet;
  }
  const parsed = { physicalNetworks, reportUnmapped: settings.boolean('reportUnmapped', false) };
  settings.done();
  return parsed;
}
