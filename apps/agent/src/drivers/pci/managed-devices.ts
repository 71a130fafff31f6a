import type { ReportedDevice } from '@ledger/inventory';
import type { PciFunction } from '../../discovery/pci-function';
import type { SysfsReader } from '../../discovery/sysfs-reader';
import type { DeviceHealthSample, JobEvidence, JobParams } from '../accelerator-driver';
import { DRIVER_ERROR_CODES, invalidParams, untouched } from '../driver-errors';
import { cleanHandles, integerParam, pciAddressParam } from '../job-params';
import { pciHealthSample } from './pci-health';
import { configureSriovVfs } from './sriov-vfs';
import { attachTarget, detachTarget } from './attach-target';
import { probePciFunction } from './probe-function';
import { type DeviceCleanStep, resetHandles } from './reset-functions';
import { bindToVfio, releaseFromVfio, VFIO_PCI } from './vfio-binding';

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
export function sysfsDriverBasics(sysfs: SysfsReader, find: FindManagedDevices, cleanStep?: DeviceCleanStep) {
  async function managedDevice(address: string): Promise<{ managed: ManagedDevice; fn: PciFunction }> {
    sysfs.invalidate();
    for (const managed of await find(await sysfs.scanPci())) {
      const fn = [managed.device, ...managed.functions].find((candidate) => candidate.address === address);
      if (fn) return { managed, fn };
    }
    throw untouched(DRIVER_ERROR_CODES.deviceNotFound, `no device of this driver at ${address}`);
  }

  /** The function an attach or detach acts on: a handle named, or one chosen for a device named by its own address (attach-target.ts). */
  async function handleFor(params: JobParams, choose: typeof attachTarget): Promise<PciFunction> {
    const named = pciAddressParam(params);
    const { managed } = await managedDevice(named);
    const device = { address: managed.device.address, handles: managed.functions.map((fn) => fn.address) };
    const address = choose(named, device, (handle) => managed.functions.find((fn) => fn.address === handle)?.driver === VFIO_PCI);
    return [managed.device, ...managed.functions].find((fn) => fn.address === address)!;
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
      const fn = await handleFor(params, attachTarget);
      return { pciAddress: fn.address, ...(await bindToVfio(sysfs, fn)) };
    },
    async detach(params: JobParams): Promise<JobEvidence> {
      const fn = await handleFor(params, detachTarget);
      return { pciAddress: fn.address, ...(await releaseFromVfio(sysfs, fn)) };
    },
    /** A probe of any function of a device: its config space answers with the ids discovery saw. */
    async probe(params: JobParams): Promise<JobEvidence> {
      const { fn } = await managedDevice(pciAddressParam(params));
      return probePciFunction(fn, params);
    },
    /** `clean` of released handles (reset-functions.ts), with the driver's own step for a device kind that has one. */
    async clean(params: JobParams): Promise<JobEvidence> {
      const { managed } = await managedDevice(pciAddressParam(params));
      return resetHandles(sysfs, [managed.device, ...managed.functions], cleanHandles(params), cleanStep);
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
