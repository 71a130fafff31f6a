import { ConflictError, LedgerError, ValidationError } from '@ledger/kernel';

/** Stable error codes of the inventory context (clients and tests match on them). */
export const InventoryErrorCodes = {
  /** A host report breaks a domain rule; `facts.path` names the offending member. */
  REPORT_INVALID: 'INVENTORY.REPORT_INVALID',
  /** A host report exceeds a size limit (413); `facts.path`, `facts.limit`, `facts.actual`. */
  REPORT_TOO_LARGE: 'INVENTORY.REPORT_TOO_LARGE',
  /** A maintenance command is malformed (bad uuid, hostname or reason). */
  COMMAND_INVALID: 'INVENTORY.COMMAND_INVALID',
  /** The device is not (or no longer) reported by its host. */
  DEVICE_NOT_FOUND: 'INVENTORY.DEVICE_NOT_FOUND',
  /** The host has never reported. */
  HOST_NOT_FOUND: 'INVENTORY.HOST_NOT_FOUND',
  /** No such deployable in the inventory. */
  DEPLOYABLE_NOT_FOUND: 'INVENTORY.DEPLOYABLE_NOT_FOUND',
  /** The device is in maintenance: nothing on it can be claimed (409). */
  DEVICE_IN_MAINTENANCE: 'INVENTORY.DEVICE_IN_MAINTENANCE',
  /** The device's recorded health is `failed`: nothing on it can be claimed (409). */
  DEVICE_UNHEALTHY: 'INVENTORY.DEVICE_UNHEALTHY',
  /** The agent of the device's host is lost: nothing on it can be claimed until it is back (409). */
  AGENT_LOST: 'INVENTORY.AGENT_LOST',
  /** Every attach handle of the deployable is claimed (409). */
  NO_FREE_ATTACH_HANDLE: 'INVENTORY.NO_FREE_ATTACH_HANDLE',
  /** A job already made another fact on the device (a job ends one way): its outcome cannot be recorded twice differently (409). */
  JOB_FACT_CONFLICT: 'INVENTORY.JOB_FACT_CONFLICT',
  /** The host is being provisioned by another provision workflow (409). */
  HOST_PROVISIONING: 'INVENTORY.HOST_PROVISIONING',
  /** A provisioning that is not the host's running one cannot be ended (409). */
  PROVISIONING_NOT_RUNNING: 'INVENTORY.PROVISIONING_NOT_RUNNING',
  /** The device's host is fenced: nothing on it can be claimed until an operator unfences it (409). */
  HOST_FENCED: 'INVENTORY.HOST_FENCED',
  /** No partition of the profile fits in what the device has left to carve (409). */
  NO_ROOM_TO_CARVE: 'INVENTORY.NO_ROOM_TO_CARVE',
  /** A reclaim found the partition claimed, cleaning or destroyed since its idle period began (409): nothing to reclaim. */
  PARTITION_NOT_IDLE: 'INVENTORY.PARTITION_NOT_IDLE',
  /** Unfence of a host that is not fenced (409). */
  HOST_NOT_FENCED: 'INVENTORY.HOST_NOT_FENCED',
  /** The attach handles a claim could take are being cleaned after a release, or their clean failed (409): `facts.cleanStatus`. */
  DEVICE_CLEANING: 'INVENTORY.DEVICE_CLEANING',
  /** Retry or release of a clean on a device that has no clean-failed handle (409). */
  CLEAN_NOT_FAILED: 'INVENTORY.CLEAN_NOT_FAILED',
  /** A read-model query parameter (limit, cursor) is malformed. */
  QUERY_INVALID: 'INVENTORY.QUERY_INVALID',
} as const;

/** A member of a host report breaks a rule; nothing was recorded. */
export class ReportInvalidError extends ValidationError {
  constructor(path: string, reason: string, value?: unknown) {
    super(InventoryErrorCodes.REPORT_INVALID, `host report: ${path} ${reason}`, { path, reason, value: excerpt(value) });
  }
}

/** A host report is larger than the ledger accepts; nothing was recorded. */
export class ReportTooLargeError extends LedgerError {
  constructor(path: string, limit: number, actual: number) {
    super(InventoryErrorCodes.REPORT_TOO_LARGE, 413, `host report: ${path} has ${actual} entries, at most ${limit} allowed`, {
      path,
      limit,
      actual,
    });
  }
}

/** A claim on a device whose recorded health is `failed`; nothing was recorded. */
export class DeviceUnhealthyError extends ConflictError {
  constructor(deviceUuid: string, reason: string | null) {
    super(InventoryErrorCodes.DEVICE_UNHEALTHY, `device ${deviceUuid} is unhealthy${reason ? ` (${reason})` : ''} and its health policy reserves it: it offers no attach handles`, {
      deviceUuid,
      healthReason: reason,
    });
  }
}

/** A claim on a device whose host's agent is lost: the ledger cannot tell what the host does with it. Nothing was recorded. */
export class AgentLostError extends ConflictError {
  constructor(hostname: string, deviceUuid: string) {
    super(InventoryErrorCodes.AGENT_LOST, `the agent of host ${hostname} is lost: device ${deviceUuid} offers no attach handles until it is back`, {
      hostname,
      deviceUuid,
    });
  }
}

/** A claim on a device of a fenced host; nothing was recorded. */
export class HostFencedError extends ConflictError {
  constructor(hostname: string, deviceUuid: string) {
    super(InventoryErrorCodes.HOST_FENCED, `host ${hostname} is fenced: device ${deviceUuid} offers no attach handles until an operator unfences it`, {
      hostname,
      deviceUuid,
    });
  }
}

/** Keeps error facts small when the offending value is large or not a primitive. */
function excerpt(value: unknown): unknown {
  if (value === undefined || value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > 100 ? `${value.slice(0, 100)}…` : value;
  return Array.isArray(value) ? '[array]' : `[${typeof value}]`;
}

/** A claim on handles that are dirty: released and not yet cleaned (pending, cleaning, or clean-failed). Nothing was recorded. */
export class DeviceCleaningError extends ConflictError {
  constructor(deviceUuid: string, cleanStatus: string, reason: string | null) {
    const why = cleanStatus === 'clean-failed' ? `its clean failed${reason ? ` (${reason})` : ''}` : 'it is being cleaned after a release';
    super(InventoryErrorCodes.DEVICE_CLEANING, `device ${deviceUuid} offers no clean attach handle: ${why}`, { deviceUuid, cleanStatus, cleanReason: reason });
  }
}
