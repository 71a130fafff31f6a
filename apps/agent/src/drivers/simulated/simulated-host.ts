import type { ReportedAttachHandle, ReportedDeployable, ReportedDevice } from '@ledger/inventory';
import { formatPciAddress, parsePciAddress } from '../../discovery/pci-address';
import { OWNER_CYBORG, traitPart } from '../pci/trait-names';
import { hash32, hex32 } from './seeded-random';
import { emptyMig, migPartitioning, type SimulatedMig } from './simulated-mig';
import type { SimulatedSettings } from './simulated.settings';

/** Most VFs a simulated PF can have: 8 devices × 8 functions on its bus. */
export const SIMULATED_TOTAL_VFS = 64;

/** One simulated device's state: what operations change and reports show. */
export interface SimulatedDevice {
  /** `fpga0`, `gpu1`, `nic0`: what degradation scripts name. */
  readonly key: string;
  readonly kind: 'fpga' | 'gpu' | 'nic';
  readonly address: string;
  readonly serial: string;
  numVfs: number;
  /**
   * FPGA shell: its interface id starts fleet-wide (one shell everywhere, so
   * one bitstream fits every simulated host) and a shell program sets it from
   * the image; null on other kinds.
   */
  shell: { interfaceId: string; sha256: string | null } | null;
  /** FPGA regions: their interface ids follow the shell's (regionInterfaceId). */
  readonly regions: { interfaceId: string; functionId: string | null }[];
  /** vGPUs created, by mdev UUID. */
  readonly mdevs: Set<string>;
  /** A GPU in MIG mode: its GPU instances; null otherwise. */
  readonly mig: SimulatedMig | null;
  /** Functions bound to vfio-pci (passed through to an instance). */
  readonly passedThrough: Set<string>;
}

/** PCI ids the simulated devices report, and a probe reads back. */
export const SIMULATED_IDS = {
  fpga: { vendorId: '8086', productId: '09c4' },
  gpu: { vendorId: '10de', productId: '20b5' },
  nic: { vendorId: '8086', productId: '1572' },
} as const;

const HOST_DRIVERS = { fpga: 'dfl-pci', gpu: 'nvidia', nic: 'i40e' } as const;
export const hostDriverOf = (device: SimulatedDevice, address: string): string =>
  address === device.address || device.kind !== 'nic' ? HOST_DRIVERS[device.kind] : 'iavf';

/** The devices a seed makes: addresses from a seed-chosen first bus, two buses per device, VFs on the PF's bus. */
export function buildSimulatedDevices(settings: SimulatedSettings): SimulatedDevice[] {
  const firstBus = 0x10 + (hash32(`${settings.seed}|bus`) % 0x40);
  const kinds = [
    ...Array.from({ length: settings.fpgas }, (_, index) => ['fpga', index] as const),
    ...Array.from({ length: settings.gpus }, (_, index) => ['gpu', index] as const),
    ...Array.from({ length: settings.nics }, (_, index) => ['nic', index] as const),
  ];
  return kinds.map(([kind, index], position) => ({
    key: `${kind}${index}`,
    kind,
    address: formatPciAddress({ domain: 0, bus: firstBus + position * 2, device: 0, function: 0 }),
    serial: hex32(`${settings.seed}|${kind}${index}|serial`).slice(0, 12).toUpperCase(),
    numVfs: kind === 'fpga' ? settings.fpgaVfs : kind === 'nic' ? settings.nicVfs : 0,
    shell: kind === 'fpga' ? { interfaceId: regionInterfaceId(null, 0), sha256: null } : null,
    regions: kind === 'fpga' ? Array.from({ length: settings.fpgaRegions }, (_, region) => ({ interfaceId: regionInterfaceId(null, region), functionId: null })) : [],
    mdevs: new Set(),
    mig: kind === 'gpu' && settings.gpuMig ? emptyMig() : null,
    passedThrough: new Set(),
  }));
}

/**
 * The interface id region n of a shell offers: the factory shell's are
 * fleet-wide constants; a loaded shell's first region offers the shell's own
 * interface id, the others one derived from it.
 */
export function regionInterfaceId(shellInterfaceId: string | null, region: number): string {
  if (shellInterfaceId === null) return hex32(`simulated-shell|${region}`);
  return region === 0 ? shellInterfaceId : hex32(`${shellInterfaceId}|${region}`);
}

/** VF n of a PF: device 1 + n / 8, function n % 8, on the PF's bus. */
export function vfAddress(pf: string, index: number): string {
  const parts = parsePciAddress(pf)!;
  return formatPciAddress({ ...parts, device: 1 + Math.floor(index / 8), function: index % 8 });
}

export const vfAddresses = (device: SimulatedDevice): string[] => Array.from({ length: device.numVfs }, (_, index) => vfAddress(device.address, index));

/** The region a VF serves: VFs are dealt out to regions in turn. */
export const regionOfVf = (device: SimulatedDevice, vfIndex: number): number => vfIndex % device.regions.length;

export function renderSimulatedDevice(device: SimulatedDevice, settings: SimulatedSettings, hostname: string): ReportedDevice {
  const driver = device.passedThrough.has(device.address) ? 'vfio-pci' : HOST_DRIVERS[device.kind];
  const common = { pciAddress: device.address, numaNode: parsePciAddress(device.address)!.bus % 2, driver };
  if (device.kind === 'fpga') {
    return {
      ...common,
      type: 'FPGA',
      ...SIMULATED_IDS.fpga,
      model: 'Simulated Intel PAC Arria 10 GX',
      boardInfo: { serial: device.serial, interface_id: device.regions.map((region) => region.interfaceId).join(',') },
      deployables: device.regions.map((region, index) => fpgaRegionDeployable(device, index, hostname)),
    };
  }
  if (device.kind === 'gpu' && device.mig) {
    // In MIG mode the GPU is offered as its GPU instances and the room to carve more (docs/partitions.md), not whole.
    return { ...gpuDescription(device, settings, common), partitioning: migPartitioning(device.mig), deployables: [] };
  }
  if (device.kind === 'gpu') {
    const vgpu = settings.vgpuType;
    const attachHandles: ReportedAttachHandle[] = vgpu
      ? Array.from({ length: settings.vgpuInstances }, (_, slot) => ({ kind: 'MDEV', address: device.address, mdevType: vgpu, slot }))
      : [{ kind: 'PCI', address: device.address }];
    return {
      ...gpuDescription(device, settings, common),
      deployables: [
        {
          resourceClass: vgpu ? 'VGPU' : 'PGPU',
          count: attachHandles.length,
          traits: [OWNER_CYBORG, vgpu ? `CUSTOM_NVIDIA_20B5_${traitPart(vgpu)}` : 'CUSTOM_NVIDIA_20B5'],
          driverName: 'simulated',
          attachHandles,
        },
      ],
    };
  }
  const vfs = vfAddresses(device);
  const physicalNetwork = settings.physicalNetwork;
  return {
    ...common,
    type: 'NIC',
    ...SIMULATED_IDS.nic,
    model: 'Simulated Intel Ethernet Controller X710',
    boardInfo: { serial: device.serial },
    deployables: [
      {
        resourceClass: 'CUSTOM_NIC',
        count: Math.max(vfs.length, 1),
        traits: [OWNER_CYBORG, 'CUSTOM_NIC_X710', vfs.length > 0 ? 'CUSTOM_VF' : 'CUSTOM_PF', `CUSTOM_${traitPart(physicalNetwork)}`],
        driverName: 'simulated',
        attachHandles: vfs.length > 0 ? vfs.map((address) => ({ kind: 'VF', address, physicalNetwork })) : [{ kind: 'PCI', address: device.address, physicalNetwork }],
      },
    ],
  };
}

function gpuDescription(device: SimulatedDevice, settings: SimulatedSettings, common: Pick<ReportedDevice, 'pciAddress' | 'numaNode' | 'driver'>): Omit<ReportedDevice, 'deployables'> {
  return {
    ...common,
    type: 'GPU',
    ...SIMULATED_IDS.gpu,
    model: 'Simulated NVIDIA A100 80GB PCIe',
    boardInfo: { serial: device.serial, uuid: `GPU-${uuidFrom(hex32(`${settings.seed}|${device.key}|uuid`))}` },
    capacity: { memoryGiB: 80 },
  };
}

/** One deployable per region; its handles are the region's VFs, or the PF (region 0) when SR-IOV is off. */
function fpgaRegionDeployable(device: SimulatedDevice, index: number, hostname: string): ReportedDeployable {
  const region = device.regions[index];
  const vfs = vfAddresses(device).filter((_, vf) => regionOfVf(device, vf) === index);
  const attachHandles: ReportedAttachHandle[] =
    device.numVfs > 0 ? vfs.map((address) => ({ kind: 'VF', address })) : index === 0 ? [{ kind: 'PCI', address: device.address }] : [];
  return {
    ...(device.regions.length > 1 ? { name: `${hostname}_${device.address}_region${index}` } : {}),
    resourceClass: 'FPGA',
    count: attachHandles.length,
    traits: [
      OWNER_CYBORG,
      'CUSTOM_FPGA_INTEL',
      'CUSTOM_FPGA_INTEL_PAC_ARRIA10',
      `CUSTOM_FPGA_REGION_INTEL_${region.interfaceId.toUpperCase()}`,
      ...(region.functionId ? [`CUSTOM_FPGA_FUNCTION_ID_INTEL_${region.functionId.toUpperCase()}`] : []),
    ],
    driverName: 'simulated',
    attachHandles,
  };
}

const uuidFrom = (hex: string): string => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
