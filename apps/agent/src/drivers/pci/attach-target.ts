import { DRIVER_ERROR_CODES, invalidParams, untouched } from '../driver-errors';

/** A device as attach and detach see it: its own address and the functions an instance may be given (its attach handles). */
export interface AttachableDevice {
  readonly address: string;
  /** PCI and VF handles, in the order reported (MDEV handles are not passed through whole). */
  readonly handles: readonly string[];
}

/**
 * The function an attach job acts on. A handle named is taken as it is.
 * A device named by its own address when its handles are other functions
 * (a PF whose VFs are the handles) gets its first handle not passed
 * through yet: an operator who names "the FPGA" means one of its VFs, and
 * only the agent knows which are free. Anything else is refused with the
 * handles it could have named.
 */
export function attachTarget(named: string, device: AttachableDevice, passedThrough: (address: string) => boolean): string {
  if (device.handles.includes(named)) return named;
  refuseUnlessDevice(named, device);
  const free = device.handles.find((address) => !passedThrough(address));
  if (free === undefined) {
    throw untouched(DRIVER_ERROR_CODES.deviceBusy, `every handle of ${device.address} is passed through already (${device.handles.join(', ')}); detach one first`);
  }
  return free;
}

/**
 * The function a detach job acts on: a handle named, or for a device named
 * by its own address the one handle it has passed through (the device
 * itself when none is, which is success without a change). Several passed
 * through are refused: the job must name the one to take back.
 */
export function detachTarget(named: string, device: AttachableDevice, passedThrough: (address: string) => boolean): string {
  if (device.handles.includes(named)) return named;
  refuseUnlessDevice(named, device);
  const held = device.handles.filter(passedThrough);
  if (held.length > 1) throw invalidParams(`${device.address} has ${held.length} functions passed through (${held.join(', ')}); name the one to detach`);
  return held[0] ?? named;
}

function refuseUnlessDevice(named: string, device: AttachableDevice): void {
  if (device.handles.length === 0) throw invalidParams(`${named} cannot be passed through: it has no PCI or VF handle (a GPU that serves vGPUs is shared as mdevs)`);
  if (named !== device.address) throw invalidParams(`${named} cannot be passed through: attach one of ${device.address}'s handles (${device.handles.join(', ')})`);
}
