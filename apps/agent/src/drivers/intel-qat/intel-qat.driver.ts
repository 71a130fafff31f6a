import { join } from 'node:path';
import type { ReportedAttachHandle } from '@ledger/inventory';
import type { PciFunction } from '../../discovery/pci-function';
import { hasValue, problemOf, readEntryText } from '../../discovery/sysfs-entries';
import type { AcceleratorDriver, DeviceHealthSample } from '../accelerator-driver';
import type { DriverContext } from '../driver-context';
import { sysfsDriverBasics, type ManagedDevice } from '../pci/managed-devices';
import { indexByAddress, pciDeviceReport, presentVfs } from '../pci/pci-device-report';
import { pciHealthSample } from '../pci/pci-health';
import { OWNER_CYBORG, traitPart } from '../pci/trait-names';

/** QuickAssist PFs (vendor 8086) by device id. */
const QAT_PRODUCTS: Readonly<Record<string, { readonly model: string; readonly trait: string }>> = {
  '37c8': { model: 'Intel QuickAssist C62x', trait: 'C62X' },
  '4940': { model: 'Intel QuickAssist 4xxx', trait: '4XXX' },
  '4942': { model: 'Intel QuickAssist 401xx', trait: '401XX' },
};

/** What `qat/cfg_services` (kernel 6.1+, 4xxx and later) may enable. */
const SERVICES = ['sym', 'asym', 'dc'] as const;

/**
 * Intel QAT as Cyborg's qat driver maps it: CUSTOM_QAT counted per VF, or
 * the PF when SR-IOV is off. Cyborg reported no traits; here the model
 * and the services the device is configured for (`qat/cfg_services`)
 * are, so a profile can ask for compression rather than any QAT. A device
 * whose `qat/state` is `down` is failed.
 */
export function intelQatDriver(context: DriverContext): AcceleratorDriver {
  const { sysfs } = context;

  async function qatAttribute(pf: PciFunction, name: string): Promise<string | undefined> {
    const path = join(pf.path, 'qat', name);
    const read = await readEntryText(path);
    const problem = problemOf(read);
    if (problem !== undefined) sysfs.warnSkipped(path, problem);
    return hasValue(read) ? read.value : undefined;
  }

  const isQatPf = (fn: PciFunction) => fn.vendorId === '8086' && QAT_PRODUCTS[fn.productId] !== undefined && fn.physicalFunction === null;

  async function findDevices(functions: readonly PciFunction[]): Promise<ManagedDevice[]> {
    const byAddress = indexByAddress(functions);
    return Promise.all(
      functions.filter(isQatPf).map(async (pf) => {
        const product = QAT_PRODUCTS[pf.productId];
        const vfs = presentVfs(pf, byAddress);
        const services = ((await qatAttribute(pf, 'cfg_services')) ?? '').split(/[;,]/).map((service) => service.trim().toLowerCase());
        const attachHandles: ReportedAttachHandle[] =
          vfs.length > 0 ? vfs.map((vf) => ({ kind: 'VF', address: vf.address })) : [{ kind: 'PCI', address: pf.address }];
        const traits = [
          OWNER_CYBORG,
          `CUSTOM_QAT_${product.trait}`,
          ...SERVICES.filter((service) => services.includes(service)).map((service) => `CUSTOM_QAT_${traitPart(service)}`),
        ];
        const report = pciDeviceReport(pf, {
          type: 'QAT',
          model: product.model,
          deployables: [{ resourceClass: 'CUSTOM_QAT', count: attachHandles.length, traits, driverName: 'intel-qat', attachHandles }],
        });
        return { device: pf, functions: vfs.length > 0 ? vfs : [pf], report };
      }),
    );
  }

  const basics = sysfsDriverBasics(sysfs, findDevices);

  return {
    name: 'intel-qat',
    playbooks: context.playbooks,
    discover: basics.discover,
    attach: basics.attach,
    probe: basics.probe,
    detach: basics.detach,
    clean: basics.clean,

    async health(): Promise<DeviceHealthSample[]> {
      const pfs = (await sysfs.scanPci()).filter(isQatPf);
      return Promise.all(
        pfs.map(async (pf) => {
          const sample = pciHealthSample(pf);
          const state = await qatAttribute(pf, 'state');
          return state === 'down' ? { ...sample, health: 'failed' as const, reason: 'QAT device is down (qat/state)' } : sample;
        }),
      );
    },

    configureVfs: basics.configureVfs,
  };
}
