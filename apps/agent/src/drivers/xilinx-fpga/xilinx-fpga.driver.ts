import { join } from 'node:path';
import { pciSlot } from '../../discovery/pci-address';
import { isProcessingAccelerator, type PciFunction } from '../../discovery/pci-function';
import type { AcceleratorDriver, JobEvidence, JobParams } from '../accelerator-driver';
import type { DriverContext } from '../driver-context';
import { BitstreamCache } from '../fpga/bitstream-cache';
import { readFpgaIds } from '../fpga/fpga-ids';
import { fpgaRegionPartitioning } from '../fpga/fpga-regions';
import { defaultImageStep } from '../fpga/default-image-step';
import { programRegionParam } from '../fpga/program-region';
import { type FpgaTarget, programWithRestore } from '../fpga/program-with-restore';
import { imageParam, pciAddressParam, refuseShellTarget } from '../job-params';
import { sysfsDriverBasics, type ManagedDevice } from '../pci/managed-devices';
import { pciDeviceReport } from '../pci/pci-device-report';
import { OWNER_CYBORG, traitPart } from '../pci/trait-names';
import type { XilinxFpgaSettings } from './xilinx-fpga.settings';

const XILINX = '10ee';

/** Alveo cards by PCI device id: each has a management PF (xclmgmt) and a user PF (xocl). */
const ALVEO: Readonly<Record<string, { readonly model: string; readonly role: 'mgmt' | 'user' }>> = {
  '5000': { model: 'Xilinx Alveo U200', role: 'mgmt' },
  '5001': { model: 'Xilinx Alveo U200', role: 'user' },
  '5004': { model: 'Xilinx Alveo U250', role: 'mgmt' },
  '5005': { model: 'Xilinx Alveo U250', role: 'user' },
  '500c': { model: 'Xilinx Alveo U280', role: 'mgmt' },
  '500d': { model: 'Xilinx Alveo U280', role: 'user' },
  '5020': { model: 'Xilinx Alveo U50', role: 'mgmt' },
  '5021': { model: 'Xilinx Alveo U50', role: 'user' },
  '505c': { model: 'Xilinx Alveo U55C', role: 'mgmt' },
  '505d': { model: 'Xilinx Alveo U55C', role: 'user' },
};

/**
 * Xilinx FPGAs (vendor 10ee, processing accelerators) as Cyborg's xilinx
 * driver maps them: the management and user PFs of a card merged into one
 * FPGA with two PCI handles. Beyond Cyborg, XRT's `interface_uuids` and
 * `logic_uuids` become region and function traits, and `program` runs
 * `xbmgmt program --device <mgmt> --base --image <file>`, restoring the
 * previous image on failure when it is cached.
 */
export function xilinxFpgaDriver(context: DriverContext, settings: XilinxFpgaSettings): AcceleratorDriver {
  const { sysfs } = context;
  const cache = new BitstreamCache(settings.bitstreamCacheDir);
  const logicIds = async (mgmt: PciFunction) => readFpgaIds(sysfs, mgmt.path, [['logic_uuids']]);

  async function findDevices(functions: readonly PciFunction[]): Promise<ManagedDevice[]> {
    const cards = new Map<string, PciFunction[]>();
    for (const fn of functions) {
      if (fn.vendorId !== XILINX || !isProcessingAccelerator(fn)) continue;
      cards.set(pciSlot(fn.address), [...(cards.get(pciSlot(fn.address)) ?? []), fn]);
    }
    return Promise.all(
      [...cards.values()].map(async (card) => {
        const mgmt = card.find((fn) => role(fn) === 'mgmt') ?? card[0];
        const [interfaces, logic] = await Promise.all([readFpgaIds(sysfs, mgmt.path, [['interface_uuids']]), logicIds(mgmt)]);
        const traits = [
          OWNER_CYBORG,
          'CUSTOM_FPGA_XILINX',
          `CUSTOM_FPGA_PRODUCT_ID_${traitPart(mgmt.productId)}`,
          ...interfaces.map((id) => `CUSTOM_FPGA_REGION_XILINX_${traitPart(id)}`),
          ...logic.map((id) => `CUSTOM_FPGA_FUNCTION_ID_XILINX_${traitPart(id)}`),
        ];
        const report = pciDeviceReport(mgmt, {
          type: 'FPGA',
          model: ALVEO[mgmt.productId]?.model ?? `Xilinx FPGA ${XILINX}:${mgmt.productId}`,
          boardInfo: interfaces.length > 0 ? { interface_id: interfaces.join(',') } : {},
          deployables: [
            { resourceClass: 'FPGA', count: 1, traits, driverName: 'xilinx-fpga', attachHandles: card.map((fn) => ({ kind: 'PCI', address: fn.address })) },
          ],
          // XRT names each dynamic (user) region by the interface it offers: the region's id.
          partitioning: fpgaRegionPartitioning(interfaces),
        });
        return { device: mgmt, functions: card, report };
      }),
    );
  }

  /** The card's base region through xbmgmt on its management function. */
  const regionOf = (mgmt: PciFunction): FpgaTarget => ({
    tool: 'xbmgmt',
    functionLabel: 'logic uuid',
    readFunctionId: async () => (await logicIds(mgmt))[0] ?? null,
    load: (imagePath) => context.runCommand(settings.toolPath, ['program', '--device', mgmt.address, '--base', '--image', imagePath], { timeoutMs: settings.programTimeoutSeconds * 1000 }),
  });
  // The card is one deployable held whole: its clean reloads the region through the management function.
  const basics = sysfsDriverBasics(
    sysfs,
    findDevices,
    defaultImageStep(settings.defaultImage, async (fn) => regionOf((await basics.managedDevice(fn.address)).managed.device)),
  );

  return {
    name: 'xilinx-fpga',
    playbooks: context.playbooks,
    discover: basics.discover,
    health: basics.health,
    attach: basics.attach,
    probe: basics.probe,
    detach: basics.detach,
    clean: basics.clean,

    async program(params: JobParams): Promise<JobEvidence> {
      refuseShellTarget(params, 'xilinx-fpga');
      const address = pciAddressParam(params);
      const image = imageParam(params);
      const { managed } = await basics.managedDevice(address);
      const mgmt = managed.device;
      // XRT's tools take no region either: xbmgmt and xbutil program a card, and the image names the interface it was built for.
      const named = programRegionParam(params, managed.report.partitioning);
      const evidence = await programWithRestore(
        regionOf(mgmt),
        image,
        { fetch: context.fetch, logger: context.logger, downloadDir: join(context.workDir, 'downloads'), cache, maxImageBytes: settings.maxImageBytes },
      );
      sysfs.invalidate();
      return named ? { ...evidence, region: named.region } : evidence;
    },
  };
}

/** The bound driver says it best (Cyborg asks `lspci -k`); the id table and function 0 are the fallbacks. */
function role(fn: PciFunction): 'mgmt' | 'user' {
  if (fn.driver === 'xclmgmt') return 'mgmt';
  if (fn.driver === 'xocl') return 'user';
  return ALVEO[fn.productId]?.role ?? (fn.address.endsWith('.0') ? 'mgmt' : 'user');
}
