import type { ReportedDevice } from '@ledger/inventory';
import type { PciFunction } from '../../discovery/pci-function';
import type { SysfsReader } from '../../discovery/sysfs-reader';
import type { DeviceHealthSample, JobEvidence, JobParams } from '../accelerator-driver';
import { DRIVER_ERROR_CODES, invalidParams, untouched } from '../driver-errors';
import { integerParam, pciAddressParam } from '../job-params';
import { pciHealthSample } from './pci-health';
import { configureSriovVfs } from './sriov-vfs';
import { bindToVfio, releaseFromVfio } from './vfio-binding';

/** One device a sysfs driver manages: the function that identifies it, every function an instance may get, and its report. */
export interface ManagedDevice {
  readonly device: PciFunction;
  /** The device's attachable functions (PF, VFs, or a card's several PFs). */
  readonly functions: readonly PciFunction[];
  readonly report: ReportedDevice;
}

/** A driver's whole view of the bus: which functions it claims and how it reports them (reading its own extra entries, if any). */
export type FindManagedDevices = (functions: readonly PciFunction[]) => Promise<ManagedDevice[]>;

/**
 * What every sysfs driver does alike: discovery and health from one scan,
 * attach and detach by vfio-pci binding, and the lookup operations start
 * from — on a fresh scan, because acting on a stale one is how a job hits
 * the wrong function.
 */
export function sysfsDriverBasics(sysfs: SysfsReader, find: FindManagedDevices) {
  async function managedDevice(address: string): Promise<{ managed: ManagedDevice; fn: PciFunction }> {
    sysfs.invalidate();
    for (const managed of await find(await sysfs.scanPci())) {
      const fn = [managed.device, ...managed.functions].find((candidate) => candidate.address === address);
      if (fn) return { managed, fn };
    }
    throw untouched(DRIVER_ERROR_CODES.deviceNotFound, `no device of this driver at ${address}`);
  }

  /** A function an instance may be given: one of a device's attach handles, never a PF whose VFs are the handles. */
  async function attachable(params: JobParams): Promise<PciFunction> {
    const address = pciAddressParam(params);
    const { managed, fn } = await managedDevice(address);
    if (!managed.functions.includes(fn)) {
      const handles = managed.functions.map((f) => f.address).join(', ');
      throw invalidParams(`${address} cannot be passed through: ${handles ? `attach one of its device's handles (${handles})` : 'its device offers no PCI handle'}`);
    }
    return fn;
  }

  return {
    managedDevice,
    async discover(): Promise<ReportedDevice[]> {
      return (await find(await sysfs.scanPci())).map((managed) => managed.report);
    },
    async health(): Promise<DeviceHealthSample[]> {
      return (await find(await sysfs.scanPci())).map((managed) => pciHealthSample(managed.device));
    },
    async attach(params: JobParams): Promise<JobEvidence> {
      return bindToVfio(sysfs, await attachable(params));
    },
    async detach(params: JobParams): Promise<JobEvidence> {
      return releaseFromVfio(sysfs, await attachable(params));
    },
    /** `configure-vfs` on the PF that identifies a device. */
    async configureVfs(params: JobParams): Promise<JobEvidence> {
      const address = pciAddressParam(params);
      const numVfs = integerParam(params, 'numVfs', 0, 4096);
      const { managed, fn } = await managedDevice(address);
      if (fn !== managed.device) throw invalidParams(`${address} is not a PF; configure-vfs takes ${managed.device.address}`);
      return configureSriovVfs(sysfs, managed.device, numVfs);
    },
  };
}
