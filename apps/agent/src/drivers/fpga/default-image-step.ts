import type { PciFunction } from '../../discovery/pci-function';
import { DRIVER_ERROR_CODES } from '../driver-errors';
import { cleanFailed, type DeviceCleanStep } from '../pci/reset-functions';
import { describeCommandFailure } from '../run-command';
import type { FpgaTarget } from './program-with-restore';

/**
 * An FPGA's clean step: the region a tenant held whole gets the operator's
 * default image (`defaultImage`, a file on the host), so the next tenant
 * finds none of the last one's logic, and the function read back is the
 * evidence. `regionOf` answers the region a released function programs,
 * or undefined for a VF: a VF shares its PF's region with other tenants'
 * VFs, whose function must not change under them, and its own reset clears
 * its queues. Without a default image the step says so in the evidence
 * (the region keeps its last function) rather than failing every clean.
 */
export function defaultImageStep(defaultImage: string | undefined, regionOf: (fn: PciFunction) => Promise<FpgaTarget | undefined>): DeviceCleanStep {
  return async (fn, ran) => {
    const region = await regionOf(fn);
    if (region === undefined) return;
    const step = `default image into the region of ${fn.address} (${region.tool})`;
    if (defaultImage === undefined) {
      ran.push({ step, result: 'skipped: no defaultImage configured, the region keeps its last function' });
      return;
    }
    const result = await region.load(defaultImage);
    if (result.exitCode !== 0 || result.timedOut) {
      const failure = describeCommandFailure(region.tool, result);
      ran.push({ step, result: `failed: ${failure}` });
      throw cleanFailed(`loading the default image ${defaultImage} failed: ${failure}`, ran, DRIVER_ERROR_CODES.toolFailed);
    }
    const functionId = await region.readFunctionId();
    ran.push({ step, result: `ok: ${defaultImage} loaded, ${region.functionLabel} ${functionId ?? 'blank'}` });
  };
}
