import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@ledger/kernel';
import type { ArqStateName } from './arq.state';

/** Stable error codes of accelerator requests (clients and tests match on them). */
export const ArqErrorCodes = {
  /** A request body, query or patch breaks a rule; `facts.path` names the member. */
  INVALID: 'ARQ.INVALID',
  /** No such request visible to the caller (another project's requests are not visible). */
  NOT_FOUND: 'ARQ.NOT_FOUND',
  /** The request's state does not allow the operation (Cyborg answers 500; we say 409). */
  BAD_STATE: 'ARQ.BAD_STATE',
  /** The instance already owns requests: Cyborg has no hot-add, so neither do we. */
  INSTANCE_HAS_ARQS: 'ARQ.INSTANCE_HAS_ARQS',
  /** `device_rp_uuid` names no provider the ledger knows, or one on another host. */
  UNKNOWN_PROVIDER: 'ARQ.UNKNOWN_PROVIDER',
  /** The provider does not offer what the request asks for (resource class or traits). */
  PROVIDER_MISMATCH: 'ARQ.PROVIDER_MISMATCH',
  /** The bind was attempted and failed (no free handle, device in maintenance, capacity quota). */
  BIND_FAILED: 'ARQ.BIND_FAILED',
  /** Deleting a bound request needs the service role, as in Cyborg. */
  SERVICE_ROLE_REQUIRED: 'ARQ.SERVICE_ROLE_REQUIRED',
  /** `?instance=&bind_state=resolved` while some of the instance's requests are still binding (Cyborg's 423). */
  NOT_RESOLVED: 'ARQ.NOT_RESOLVED',
  /** The profile's `accel:bitstream_id` names no registered bitstream. */
  BITSTREAM_UNKNOWN: 'ARQ.BITSTREAM_UNKNOWN',
  /** The profile's `accel:bitstream_id` names a retired bitstream. */
  BITSTREAM_RETIRED: 'ARQ.BITSTREAM_RETIRED',
  /** The profile's bitstream is not verified by a trusted key (unsigned while unsigned images are refused, or its key revoked). */
  BITSTREAM_UNTRUSTED: 'ARQ.BITSTREAM_UNTRUSTED',
  /** The profile's bitstream is built for another shell interface than the device reports. */
  BITSTREAM_INCOMPATIBLE: 'ARQ.BITSTREAM_INCOMPATIBLE',
  /** No live, trusted bitstream that fits the device has the profile's `accel:function_id`. */
  NO_BITSTREAM_FOR_FUNCTION: 'ARQ.NO_BITSTREAM_FOR_FUNCTION',
} as const;

export class ArqInvalidError extends ValidationError {
  constructor(path: string, message: string) {
    super(ArqErrorCodes.INVALID, message, { path });
  }
}

/** Worded as the `openstack accelerator` client expects it. */
export class ArqNotFoundError extends NotFoundError {
  constructor(uuid: string) {
    super(ArqErrorCodes.NOT_FOUND, `Accelerator request ${uuid} could not be found.`, { uuid });
  }
}

export class ArqBadStateError extends ConflictError {
  constructor(uuid: string, state: ArqStateName | 'deleted', action: string) {
    super(ArqErrorCodes.BAD_STATE, `Accelerator request ${uuid} is ${state}: cannot ${action}`, { uuid, state, action });
  }
}

export class ArqServiceRoleRequiredError extends ForbiddenError {
  constructor(uuid: string) {
    super(ArqErrorCodes.SERVICE_ROLE_REQUIRED, `Accelerator request ${uuid} is bound: deleting it needs the service role`, { uuid });
  }
}

/** Bind, unbind and delete by instance are Nova's: they need the service role, which no policy file can grant (CVE-2026-40214). */
export class NovaServiceRoleRequiredError extends ForbiddenError {
  constructor(what: string) {
    super('AUTH.ROLE_REQUIRED', `${what} needs the service role (Nova sends it in X-Service-Token)`, { roles: ['service'] });
  }
}

/** The bitstream a bind's profile asks for cannot be loaded; refused before anything is recorded. */
export class BindBitstreamError extends ConflictError {
  constructor(
    code: 'BITSTREAM_UNKNOWN' | 'BITSTREAM_RETIRED' | 'BITSTREAM_UNTRUSTED' | 'BITSTREAM_INCOMPATIBLE' | 'NO_BITSTREAM_FOR_FUNCTION',
    message: string,
    facts: Record<string, unknown>,
  ) {
    super(ArqErrorCodes[code], message, facts);
  }
}
