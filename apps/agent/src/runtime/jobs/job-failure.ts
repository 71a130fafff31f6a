import type { JobEvidence } from '../../drivers/accelerator-driver';

/**
 * Codes the agent reports with a failed job (besides a driver's own
 * DriverOperationError codes). Listed in apps/agent/README.md, "Jobs".
 */
export const JOB_FAILURE_CODES = {
  /** Unknown kind, or the owning driver lacks the operation. */
  unsupported: 'JOB.UNSUPPORTED',
  /** A required parameter is missing or malformed. */
  paramsInvalid: 'JOB.PARAMS_INVALID',
  /** No enabled driver discovered the device at `params.pciAddress`. */
  deviceUnknown: 'JOB.DEVICE_UNKNOWN',
  /** The operation did not finish within the job's timeoutSeconds. */
  timedOut: 'JOB.TIMED_OUT',
  /** A program job's image could not be fetched. */
  imageUnavailable: 'JOB.IMAGE_UNAVAILABLE',
  /** A program job's image does not have the checksum it should: the device was not touched. */
  imageChecksumMismatch: 'JOB.IMAGE_CHECKSUM_MISMATCH',
  /** ansible-playbook failed, timed out or could not start. */
  playbookFailed: 'JOB.PLAYBOOK_FAILED',
  /** A driver threw something other than a DriverOperationError: a bug; the device state is unknown. */
  agentError: 'JOB.AGENT_ERROR',
} as const;

/** A job failed before or around the driver call, with the facts to record. */
export class JobFailure extends Error {
  constructor(
    readonly code: string,
    reason: string,
    readonly evidence: JobEvidence = {},
  ) {
    super(reason);
    this.name = 'JobFailure';
  }
}
