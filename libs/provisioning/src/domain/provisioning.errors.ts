import { ConflictError, NotFoundError } from '@ledger/kernel';

/** Stable error codes of the provisioning context (docs/errors.md). */
export const ProvisioningErrorCodes = {
  /** The host reports no FPGA to load a shell on (409). */
  NO_FPGA: 'PROVISION.NO_FPGA',
  /** The host has several FPGAs and the request names none (`device`) (409). */
  DEVICE_REQUIRED: 'PROVISION.DEVICE_REQUIRED',
  /** The device named is not an FPGA the host reports (404). */
  DEVICE_NOT_FOUND: 'PROVISION.DEVICE_NOT_FOUND',
  /** The shell bitstream is retired: it may no longer be programmed (409). */
  BITSTREAM_RETIRED: 'PROVISION.BITSTREAM_RETIRED',
  /** The shell bitstream may not be loaded: signed by a key revoked since, or unsigned while unsigned images are refused (409). */
  BITSTREAM_UNTRUSTED: 'PROVISION.BITSTREAM_UNTRUSTED',
  /** The shell the agent read back is not the registered one (checksum or interface id); a failed step, never an HTTP answer. */
  SHELL_MISMATCH: 'PROVISION.SHELL_MISMATCH',
  /** Placement did not reach the host's desired state in time; a failed step attempt, never an HTTP answer. */
  PLACEMENT_NOT_IN_SYNC: 'PROVISION.PLACEMENT_NOT_IN_SYNC',
} as const;

export class NoFpgaError extends ConflictError {
  constructor(hostname: string) {
    super(ProvisioningErrorCodes.NO_FPGA, `host ${hostname} reports no FPGA: there is no shell to load`, { hostname });
  }
}

export class DeviceRequiredError extends ConflictError {
  constructor(hostname: string, fpgas: readonly string[]) {
    super(ProvisioningErrorCodes.DEVICE_REQUIRED, `host ${hostname} has ${fpgas.length} FPGAs: name one as device`, { hostname, fpgas });
  }
}

export class ProvisionDeviceNotFoundError extends NotFoundError {
  constructor(hostname: string, deviceUuid: string) {
    super(ProvisioningErrorCodes.DEVICE_NOT_FOUND, `host ${hostname} reports no FPGA ${deviceUuid}`, { hostname, deviceUuid });
  }
}

export class ShellBitstreamRetiredError extends ConflictError {
  constructor(bitstreamId: string) {
    super(ProvisioningErrorCodes.BITSTREAM_RETIRED, `bitstream ${bitstreamId} is retired and may no longer be programmed`, { bitstreamId });
  }
}

export class ShellBitstreamUntrustedError extends ConflictError {
  constructor(bitstreamId: string, verdict: string) {
    super(ProvisioningErrorCodes.BITSTREAM_UNTRUSTED, `bitstream ${bitstreamId} is not vouched for now (its signature is ${verdict}): the ledger loads no unverified shell`, {
      bitstreamId,
      verdict,
    });
  }
}

export class ShellMismatchError extends ConflictError {
  constructor(problem: string, facts: Readonly<Record<string, unknown>>) {
    super(ProvisioningErrorCodes.SHELL_MISMATCH, problem, facts);
  }
}

export class PlacementNotInSyncError extends ConflictError {
  constructor(hostname: string, state: string, waitedMs: number) {
    super(ProvisioningErrorCodes.PLACEMENT_NOT_IN_SYNC, `Placement is ${state} for host ${hostname} after ${waitedMs} ms`, { hostname, state });
  }
}
