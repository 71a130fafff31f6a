import { DriverOperationError, type JobEvidence } from './accelerator-driver';

/**
 * The codes a failed driver operation carries into `jobs.JobFailed.code`
 * (see apps/agent/README.md, "Drivers"). Stable: operators and tests match on them.
 */
export const DRIVER_ERROR_CODES = {
  /** The job's params are malformed or out of range; nothing was touched. */
  invalidParams: 'DRIVER.INVALID_PARAMS',
  /** No device (or function) of this driver at that PCI address. */
  deviceNotFound: 'DRIVER.DEVICE_NOT_FOUND',
  /** The image could not be fetched (HTTP error, unreachable, too large). */
  imageDownloadFailed: 'DRIVER.IMAGE_DOWNLOAD_FAILED',
  /** The image's SHA-256 differs from the job's; the device was not touched. */
  imageChecksumMismatch: 'DRIVER.IMAGE_CHECKSUM_MISMATCH',
  /** A vendor tool (fpgaconf, xbmgmt) failed, timed out or is missing. */
  toolFailed: 'DRIVER.TOOL_FAILED',
  /** The kernel refused a sysfs write (EBUSY, EINVAL, ENOSPC…). */
  sysfsWriteFailed: 'DRIVER.SYSFS_WRITE_FAILED',
  /** The operation ran but reading the device back shows another result. */
  verifyFailed: 'DRIVER.VERIFY_FAILED',
  /** The device is in use in a way the operation would break (VFs or mdevs held by instances); nothing was touched. */
  deviceBusy: 'DRIVER.DEVICE_BUSY',
  /** The device has no room for it (no mdev instance of that type left). */
  noCapacity: 'DRIVER.NO_CAPACITY',
  /** A probe found the function not answering on the bus (config space unreadable or all ones); nothing was touched. */
  unreachable: 'DRIVER.UNREACHABLE',
  /** This driver cannot load the job's target (a shell on a card whose shell is a flash update); nothing was touched. */
  targetUnsupported: 'DRIVER.TARGET_UNSUPPORTED',
  /** The simulated driver was told to fail this operation. */
  injectedFailure: 'DRIVER.INJECTED_FAILURE',
} as const;

/** A failure before anything was changed. */
export const untouched = (code: string, message: string, evidence: JobEvidence = {}): DriverOperationError =>
  new DriverOperationError(code, message, 'unchanged', evidence);

export const invalidParams = (message: string): DriverOperationError => untouched(DRIVER_ERROR_CODES.invalidParams, message);
