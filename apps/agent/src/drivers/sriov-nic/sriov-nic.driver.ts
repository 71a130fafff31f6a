import type { ReportedAttachHandle } from '@ledger/inventory';
import type { PciFunction } from '../../discovery/pci-function';
import type { AcceleratorDriver } from '../accelerator-driver';
import type { DriverContext } from '../driver-context';
import { sysfsDriverBasics, type ManagedDevice } from '../pci/managed-devices';
import { indexByAddress, pciDeviceReport, presentVfs } from '../pci/pci-device-report';
import { OWNER_CYBORG, traitPart } from '../pci/trait-names';
import type { SriovNicSettings } from './sriov-nic.settings';

/** SR-IOV NIC PFs by `vendor:device`. */
const NICS: Readonly<Record<string, { readonly model: string; readonly trait: string }>> = {
  '8086:1572': { model: 'Intel Ethernet Controller X710', trait: 'X710' },
  '8086:1583': { model: 'Intel Ethernet Controller XL710', trait: 'XL710' },
  '8086:158b': { model: 'Intel Ethernet Controller XXV710', trait: 'XXV710' },
  '8086:1592': { model: 'Intel Ethernet Controller E810-C', trait: 'E810' },
  '8086:159b': { model: 'Intel Ethernet Controller E810-XXV', trait: 'E810' },
  '15b3:1013': { model: 'Mellanox ConnectX-4', trait: 'CONNECTX4' },
  '15b3:1015': { model: 'Mellanox ConnectX-4 Lx', trait: 'CONNECTX4LX' },
  '15b3:1017': { model: 'Mellanox ConnectX-5', trait: 'CONNECTX5' },
  '15b3:1019': { model: 'Mellanox ConnectX-5 Ex', trait: 'CONNECTX5' },
  '15b3:101b': { model: 'Mellanox ConnectX-6', trait: 'CONNECTX6' },
  '15b3:101d': { model: 'Mellanox ConnectX-6 Dx', trait: 'CONNECTX6DX' },
  '15b3:1021': { model: 'Mellanox ConnectX-7', trait: 'CONNECTX7' },
};

/**
 * SR-IOV NICs as Cyborg's intel_nic driver maps them, for more cards:
 * CUSTOM_NIC counted per VF (the PF when SR-IOV is off), each handle
 * carrying the PF's physical network from the operator's mapping, which
 * Nova reads from the handle. Traits: the model, CUSTOM_VF or CUSTOM_PF,
 * and CUSTOM_<PHYSNET>. A PF without a mapping is left out unless
 * `reportUnmapped`: it is usually the host's own uplink.
 */
export function sriovNicDriver(context: DriverContext, settings: SriovNicSettings): AcceleratorDriver {
  const { sysfs } = context;
  const warnedUnmapped = new Set<string>();

  const isNicPf = (fn: PciFunction) => NICS[`${fn.vendorId}:${fn.productId}`] !== undefined && fn.physicalFunction === null;
  const physicalNetworkOf = (pf: PciFunction): string | undefined =>
    settings.physicalNetworks[pf.address] ?? pf.netInterfaces.map((name) => settings.physicalNetworks[name]).find((physnet) => physnet !== undefined);

  async function findDevices(functions: readonly PciFunction[]): Promise<ManagedDevice[]> {
    const byAddress = indexByAddress(functions);
    const devices: ManagedDevice[] = [];
    for (const pf of functions.filter(isNicPf)) {
      const physicalNetwork = physicalNetworkOf(pf);
      if (physicalNetwork === undefined && !settings.reportUnmapped) {
        if (!warnedUnmapped.has(pf.address)) {
          warnedUnmapped.add(pf.address);
          context.logger.warn(`sriov-nic: ${pf.address} (${pf.netInterfaces.join(', ') || 'no interface'}) has no physical network in physicalNetworks; not reported`);
        }
        continue;
      }
      const nic = NICS[`${pf.vendorId}:${pf.productId}`];
      const vfs = presentVfs(pf, byAddress);
      const onNetwork = physicalNetwork !== undefined ? { physicalNetwork } : {};
      const attachHandles: ReportedAttachHandle[] =
        vfs.length > 0 ? vfs.map((vf) => ({ kind: 'VF', address: vf.address, ...onNetwork })) : [{ kind: 'PCI', address: pf.address, ...onNetwork }];
      const traits = [
        OWNER_CYBORG,
        `CUSTOM_NIC_${nic.trait}`,
        vfs.length > 0 ? 'CUSTOM_VF' : 'CUSTOM_PF',
        ...(physicalNetwork !== undefined ? [`CUSTOM_${traitPart(physicalNetwork)}`] : []),
      ];
      const report = pciDeviceReport(pf, {
        type: 'NIC',
        model: nic.model,
        boardInfo: pf.netInterfaces.length > 0 ? { interface: pf.netInterfaces.join(',') } : {},
        deployables: [{ resourceClass: 'CUSTOM_NIC', count: attachHandles.length, traits, driverName: 'sriov-nic', attachHandles }],
      });
      devices.push({ device: pf, functions: vfs.length > 0 ? vfs : [pf], report });
    }
    return devices;
  }

  const basics = sysfsDriverBasics(sysfs, findDevices);

  return {
    name: 'sriov-nic',
    playbooks: context.playbooks,
    discover: basics.discover,
    health: basics.health,
    attach: basics.attach,
    probe: basics.probe,
    detach: basics.detach,
    clean: basics.clean,

    configureVfs: basics.configureVfs,
  };
}
