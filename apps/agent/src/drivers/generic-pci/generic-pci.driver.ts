import type { PciFunction } from '../../discovery/pci-function';
import type { AcceleratorDriver } from '../accelerator-driver';
import type { DriverContext } from '../driver-context';
import { DriverSettings } from '../driver-settings';
import { sysfsDriverBasics, type ManagedDevice } from '../pci/managed-devices';
import { pciDeviceReport } from '../pci/pci-device-report';
import { OWNER_CYBORG, traitPart } from '../pci/trait-names';
import { allowEntryFor, deviceTypeByClass, parseAllowList, type PciAllowEntry } from './pci-allow-list';

/** Vendor names for `CUSTOM_PCI_<VENDOR>` (Cyborg knew two; the id stands in for the rest). */
const VENDOR_NAMES: Readonly<Record<string, string>> = {
  '1002': 'AMD',
  '10de': 'NVIDIA',
  '10ee': 'XILINX',
  '102b': 'MATROX',
  '144d': 'SAMSUNG',
  '15b3': 'MELLANOX',
  '19e5': 'HUAWEI',
  '1bd4': 'INSPUR',
  '1da3': 'HABANA',
  '8086': 'INTEL',
};

export interface GenericPciSettings {
  readonly allow: readonly PciAllowEntry[];
}

/** `generic-pci` settings: `allow`, the operator's allow-list (nothing is reported without one). */
export function parseGenericPciSettings(raw: unknown): GenericPciSettings {
  const settings = new DriverSettings(raw, 'generic-pci');
  const parsed = { allow: parseAllowList(settings) };
  settings.done();
  return parsed;
}

/**
 * Any PCI function the operator allow-lists, as Cyborg's 2026 pci driver:
 * CUSTOM_PCI 1 with one handle (VF for a VF), traits OWNER_CYBORG,
 * CUSTOM_PCI_<VENDOR>, CUSTOM_PCI_PRODUCT_ID_<PID>. Listed after the
 * dedicated drivers, it loses any address one of them claims.
 */
export function genericPciDriver(context: DriverContext, settings: GenericPciSettings): AcceleratorDriver {
  async function findDevices(functions: readonly PciFunction[]): Promise<ManagedDevice[]> {
    return functions.flatMap((fn) => {
      const entry = allowEntryFor(fn, settings.allow);
      if (!entry) return [];
      const report = pciDeviceReport(fn, {
        type: entry.type ?? deviceTypeByClass(fn),
        model: `PCI device ${fn.vendorId}:${fn.productId}`,
        deployables: [
          {
            resourceClass: 'CUSTOM_PCI',
            count: 1,
            traits: [OWNER_CYBORG, `CUSTOM_PCI_${VENDOR_NAMES[fn.vendorId] ?? traitPart(fn.vendorId)}`, `CUSTOM_PCI_PRODUCT_ID_${traitPart(fn.productId)}`],
            driverName: 'generic-pci',
            attachHandles: [{ kind: fn.physicalFunction !== null ? 'VF' : 'PCI', address: fn.address }],
          },
        ],
      });
      return [{ device: fn, functions: [fn], report }];
    });
  }

  const basics = sysfsDriverBasics(context.sysfs, findDevices);

  return {
    name: 'generic-pci',
    playbooks: context.playbooks,
    discover: basics.discover,
    health: basics.health,
    attach: basics.attach,
    probe: basics.probe,
    detach: basics.detach,
    clean: basics.clean,
  };
}
