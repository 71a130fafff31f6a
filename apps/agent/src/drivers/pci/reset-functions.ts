import { join } from 'node:path';
import type { PciFunction } from '../../discovery/pci-function';
import type { SysfsReader } from '../../discovery/sysfs-reader';
import { DriverOperationError, type JobEvidence } from '../accelerator-driver';
import { DRIVER_ERROR_CODES } from '../driver-errors';
import type { CleanHandleParam } from '../job-params';

/** One step of a clean job and its result, as DeviceCleaned records it. */
export interface CleanStepDone {
  readonly step: string;
  readonly result: string;
}

/** A step a driver adds for a handle (a GPU's reset, an FPGA region's default image); undefined: the function-level reset alone. */
export type DeviceCleanStep = (fn: PciFunction, ran: CleanStepDone[]) => Promise<void>;

/**
 * The clean job on sysfs functions: for each released handle, the driver's
 * own step when it has one for the function, then a function-level reset
 * through the kernel's `reset` attribute (FLR, or the bus reset the kernel
 * falls back to), which clears a VF's queues, MAC/VLAN and a function's
 * state without touching the PF's other VFs. An mdev is torn down by its
 * remove-mdev job; its parent is not reset under the other mdevs' tenants.
 * The first failure stops the job and says which steps ran.
 */
export async function resetHandles(
  sysfs: SysfsReader,
  functions: readonly PciFunction[],
  handles: readonly CleanHandleParam[],
  deviceStep?: DeviceCleanStep,
): Promise<JobEvidence> {
  const ran: CleanStepDone[] = [];
  for (const handle of handles) {
    if (handle.type === 'MDEV') {
      ran.push({ step: `${handle.type} ${handle.address}`, result: 'no reset: removed with its instance, its parent stays in service' });
      continue;
    }
    const fn = functions.find((candidate) => candidate.address === handle.address);
    if (!fn) throw failed(`no function ${handle.address} on this device`, ran, DRIVER_ERROR_CODES.deviceNotFound);
    try {
      await deviceStep?.(fn, ran);
      await sysfs.write(join(sysfs.functionPath(fn.address), 'reset'), '1');
      ran.push({ step: `function-level reset of ${fn.address}`, result: 'ok' });
    } catch (error) {
      if (error instanceof DriverOperationError) throw error;
      ran.push({ step: `function-level reset of ${fn.address}`, result: `failed: ${(error as Error).message}` });
      throw failed(`reset of ${fn.address} failed: ${(error as Error).message}`, ran, DRIVER_ERROR_CODES.sysfsWriteFailed);
    }
  }
  return { ran };
}

export const cleanFailed = (message: string, ran: readonly CleanStepDone[], code: string = DRIVER_ERROR_CODES.toolFailed): DriverOperationError =>
  new DriverOperationError(code, message, 'not clean: held back from tenants until cleaned or released by an operator', { ran });

const failed = (message: string, ran: readonly CleanStepDone[], code: string) => cleanFailed(message, ran, code);
