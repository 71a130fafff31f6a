import { NotFoundError, ValidationError } from '@ledger/kernel';

/** Stable error codes of the jobs context (clients and tests match on them). */
export const JobErrorCodes = {
  /** A job request, result or query breaks a rule; `facts.path` names the member (`kind`, `params.numVfs`, `evidence`…). */
  INVALID: 'JOB.INVALID',
  /** No job with that id (404). */
  NOT_FOUND: 'JOB.NOT_FOUND',
  /** The job is completed or failed already; a result or dispatch that comes later is refused (409). */
  ALREADY_FINISHED: 'JOB.ALREADY_FINISHED',
  /** The job belongs to another host (403). */
  WRONG_HOST: 'JOB.WRONG_HOST',
  /** The host's agent is lost or has never run, so a job would only wait and time out; nothing was recorded (409). */
  AGENT_UNAVAILABLE: 'JOB.AGENT_UNAVAILABLE',
  /** The failure code the ledger records when no result came within the job's timeout. */
  TIMED_OUT: 'JOB.TIMED_OUT',
  /** Only deployables on an FPGA device can be programmed (409). */
  NOT_PROGRAMMABLE: 'DEPLOYABLE.NOT_PROGRAMMABLE',
} as const;

/** Input that breaks a job rule; nothing was recorded. */
export class JobInvalidError extends ValidationError {
  constructor(path: string, reason: string, value?: unknown, extra: Record<string, unknown> = {}) {
    super(JobErrorCodes.INVALID, `job: ${path} ${reason}`, { path, reason, ...(value === undefined ? {} : { value: excerpt(value) }), ...extra });
  }
}

export const jobNotFound = (jobId: string) => new NotFoundError(JobErrorCodes.NOT_FOUND, `job ${jobId} does not exist`, { jobId });

/** Keeps error facts small when the offending value is large or not a primitive. */
function excerpt(value: unknown): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > 100 ? `${value.slice(0, 100)}…` : value;
  return Array.isArray(value) ? '[array]' : `[${typeof value}]`;
}
