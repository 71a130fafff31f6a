import { ConflictError, NotFoundError, ValidationError } from '@ledger/kernel';

/** Stable error codes of device profiles (clients and tests match on them). */
export const DeviceProfileErrorCodes = {
  /** The profile (name, description, uuid or a group) breaks a rule; `facts.path` names the member. */
  INVALID: 'DEVICE_PROFILE.INVALID',
  /** No live profile with that uuid or name. */
  NOT_FOUND: 'DEVICE_PROFILE.NOT_FOUND',
  /** A live profile already has that name, or a profile that uuid. */
  DUPLICATE: 'DEVICE_PROFILE.DUPLICATE',
  /** Accelerator requests still reference the profile, so it cannot be deleted. */
  IN_USE: 'DEVICE_PROFILE.IN_USE',
} as const;

/** A device profile breaks a rule; nothing was recorded. `path` is e.g. `name` or `groups[0].resources:FPGA`. */
export class DeviceProfileInvalidError extends ValidationError {
  constructor(path: string, message: string) {
    super(DeviceProfileErrorCodes.INVALID, message, { path });
  }
}

/** Cyborg's wording (`Device Profile not found with uuid=…`), which its client prints. */
export class DeviceProfileNotFoundError extends NotFoundError {
  constructor(by: 'uuid' | 'name', value: string) {
    super(DeviceProfileErrorCodes.NOT_FOUND, `Device Profile not found with ${by}=${value}`, { [by]: value });
  }
}

/** Cyborg's wording (`A device_profile with name … already exists.`), without its traceback. */
export class DeviceProfileDuplicateError extends ConflictError {
  constructor(by: 'uuid' | 'name', value: string) {
    super(DeviceProfileErrorCodes.DUPLICATE, `A device_profile with ${by} ${value} already exists.`, { [by]: value });
  }
}

/** Cyborg answers this case with a database error; we say what is wrong and what to do. */
export class DeviceProfileInUseError extends ConflictError {
  constructor(name: string, uuid: string, requests: number) {
    super(
      DeviceProfileErrorCodes.IN_USE,
      `Device profile ${name} is still used by ${requests} accelerator request(s); delete them before the profile`,
      { name, uuid, requests },
    );
  }
}
