import { join } from 'node:path';
import type { ReportedAttachHandle } from '@ledger/inventory';
import { parsePciAddress } from '../../discovery/pci-address';
import type { PciFunction } from '../../discovery/pci-function';
import type { AcceleratorDriver, JobEvidence, JobParams } from '../accelerator-driver';
import type { DriverContext } from '../driver-context';
import { BitstreamCache } from '../fpga/bitstream-cache';
import { defaultImageStep } from '../fpga/default-image-step';
import { readFpgaIds } from '../fpga/fpga-ids';
import { findFpgaRegions, fpgaRegionPartitioning } from '../fpga/fpga-regions';
import { programRegionParam } from '../fpga/program-region';
import { programWithRestore, type FpgaTarget } from '../fpga/program-with-restore';
import { DRIVER_ERROR_CODES, untouched } from '../driver-errors';
import { imageParam, pciAddressParam, refuseShellTarget } from '../job-params';
import { sysfsDriverBasics, type ManagedDevice } from '../pci/managed-devices';
import { indexByAddress, pciDeviceReport, presentVfs } from '../pci/pci-device-report';
import { isBlankFpgaId, OWNER_CYBORG, traitPart } from '../pci/trait-names';
import { AFU_ID_LAYOUTS, INTEL_FPGA_PRODUCTS, INTERFACE_ID_LAYOUTS, PR_REGION_LAYOUTS } from './intel-fpga-layout';
import type { IntelFpgaSettings } from './intel-fpga.settings';

/**
 * Intel FPGA cards (PAC Arria 10, D5005, N3000) as Cyborg's intel driver
 * maps them: one FPGA deployable per PF, counted per VF when SR-IOV is on,
 * with the region's interface id and each loaded AFU as traits. Programs
 * through OPAE's fpgaconf, restoring the previous AFU on failure when its
 * image is cached.
 */
export function intelFpgaDriver(context: DriverContext, settings: IntelFpgaSettings): AcceleratorDriver {
  const { sysfs } = context;
  const cache = new BitstreamCache(settings.bitstreamCacheDir);

  const interfaceIds = (fn: PciFunction) => readFpgaIds(sysfs, fn.path, INTERFACE_ID_LAYOUTS);
  const loadedAfus = async (fns: readonly PciFunction[]) =>
    (await Promise.all(fns.map((fn) => readFpgaIds(sysfs, fn.path, AFU_ID_LAYOUTS)))).flat().filter((id) => !isBlankFpgaId(id));

  async function findDevices(functions: readonly PciFunction[]): Promise<ManagedDevice[]> {
    const byAddress = indexByAddress(functions);
    const pfs = functions.filter((fn) => fn.vendorId === '8086' && INTEL_FPGA_PRODUCTS[fn.productId] && fn.physicalFunction === null);
    return Promise.all(
      pfs.map(async (pf) => {
        const product = INTEL_FPGA_PRODUCTS[pf.productId];
        const vfs = presentVfs(pf, byAddress);
        const [regions, afus, prRegions] = await Promise.all([interfaceIds(pf), loadedAfus([pf, ...vfs]), findFpgaRegions(pf.path, PR_REGION_LAYOUTS)]);
        const attachHandles: ReportedAttachHandle[] =
          vfs.length > 0 ? vfs.map((vf) => ({ kind: 'VF', address: vf.address })) : [{ kind: 'PCI', address: pf.address }];
        const traits = [
          OWNER_CYBORG,
          'CUSTOM_FPGA_INTEL',
          `CUSTOM_FPGA_INTEL_${product.trait}`,
          ...regions.map((id) => `CUSTOM_FPGA_REGION_INTEL_${traitPart(id)}`),
          ...[...new Set(afus)].map((id) => `CUSTOM_FPGA_FUNCTION_ID_INTEL_${traitPart(id)}`),
        ];
        const report = pciDeviceReport(pf, {
          type: 'FPGA',
          model: product.model,
          boardInfo: regions.length > 0 ? { interface_id: regions.join(',') } : {},
          deployables: [{ resourceClass: 'FPGA', count: attachHandles.length, traits, driverName: 'intel-fpga', attachHandles }],
          partitioning: fpgaRegionPartitioning(prRegions),
        });
        return { device: pf, functions: vfs.length > 0 ? vfs : [pf], report };
      }),
    );
  }

  /** The PF's region through fpgaconf: what a program loads into and a clean loads the default image into. */
  const regionOf = (pf: PciFunction, afuHolders: readonly PciFunction[]): FpgaTarget => ({
    tool: 'fpgaconf',
    functionLabel: 'AFU id',
    readFunctionId: async () => (await loadedAfus(afuHolders))[0] ?? null,
    load: (imagePath) => context.runCommand(settings.toolPath, [...fpgaconfAddress(pf.address), imagePath], { timeoutMs: settings.programTimeoutSeconds * 1000 }),
  });
  // A clean of the PF (a card without VFs, held whole) reloads the region; a VF's clean is its reset alone.
  const basics = sysfsDriverBasics(
    sysfs,
    findDevices,
    defaultImageStep(settings.defaultImage, async (fn) => (fn.physicalFunction === null ? regionOf(fn, [fn]) : undefined)),
  );

  return {
    name: 'intel-fpga',
    playbooks: context.playbooks,
    discover: basics.discover,
    health: basics.health,
    attach: basics.attach,
    probe: basics.probe,
    detach: basics.detach,
    clean: basics.clean,

    async program(params: JobParams): Promise<JobEvidence> {
      refuseShellTarget(params, 'intel-fpga');
      const address = pciAddressParam(params);
      const image = imageParam(params);
      const { managed, fn } = await basics.managedDevice(address);
      const pf = managed.device;
      const named = programRegionParam(params, managed.report.partitioning);
      // OPAE's fpgaconf takes no region: it programs slot 0 of the card it finds (fpgaReconfigureSlot with slot 0, "we don't support multiple slots").
      if (named && named.slot !== 0) {
        throw untouched(
          DRIVER_ERROR_CODES.targetUnsupported,
          `fpgaconf programs only the first PR region (slot 0) of ${pf.address}; region ${named.region} is slot ${named.slot}`,
        );
      }
      // The AFU is read where the port lives: the addressed function, or for a PF that handed its port to VFs, those VFs.
      const afuHolders = fn === pf ? [pf, ...managed.functions.filter((candidate) => candidate !== pf)] : [fn];
      const evidence = await programWithRestore(regionOf(pf, afuHolders), image, {
        fetch: context.fetch,
        logger: context.logger,
        downloadDir: join(context.workDir, 'downloads'),
        cache,
        maxImageBytes: settings.maxImageBytes,
      });
      sysfs.invalidate();
      return named ? { ...evidence, region: named.region } : evidence;
    },

    configureVfs: basics.configureVfs,
  };
}

/** fpgaconf finds the card by its PF's address (the FME lives there), whichever function the job named. */
function fpgaconfAddress(address: string): string[] {
  const parts = parsePciAddress(address)!;
  const hex = (value: number, width: number) => `0x${value.toString(16).padStart(width, '0')}`;
  const segment = parts.domain !== 0 ? ['--segment', hex(parts.domain, 4)] : [];
  return [...segment, '--bus', hex(parts.bus, 2), '--device', hex(parts.device, 2), '--function', hex(parts.function, 1)];
}
