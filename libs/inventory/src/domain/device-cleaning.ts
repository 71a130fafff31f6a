import { ConflictError, isUuid, ValidationError } from '@ledger/kernel';
import { DeviceCleaningError, HostFencedError, InventoryErrorCodes } from './inventory.errors';
import type { AttachHandleClaim, CleaningCause, CleanStep, DeviceCleaningEvent } from './inventory.events';

/**
 * Cleaning on the device stream (issue 24 part 3): a released attach handle
 * is dirty until a clean job says otherwise. Cleaning is per handle, not per
 * device: a NIC's VF released by one tenant is reset on its own while the
 * PF's other VFs stay claimable; a device with one handle (a GPU, an FPGA
 * region) is the handle.
 */
export type HandleCleanStatus = 'pending' | 'cleaning' | 'clean-failed';

export interface HandleCleaning {
  readonly status: HandleCleanStatus;
  /** The cleaning attempt in force; null while `pending` (released by a fence, cleaned at the unfence). */
  readonly attempt: number | null;
  /** Why it is pending (the fence's reason) or why its clean failed. */
  readonly reason: string | null;
}

export interface DeviceCleaning {
  /** Cleanings started on the device so far: the next is `attempts + 1`. */
  readonly attempts: number;
  /** The dirty handles, by uuid; a clean handle has no entry. */
  readonly handles: Readonly<Record<string, HandleCleaning>>;
}

/** The outcome of a clean job, from the job-facts reactor; idempotent by attempt. */
export interface RecordCleaned {
  readonly type: 'RecordCleaned';
  readonly deviceUuid: string;
  readonly attempt: number;
  readonly jobId: string;
  readonly ran: readonly CleanStep[];
  readonly cleanedAt: string;
}

export interface RecordCleanFailed {
  readonly type: 'RecordCleanFailed';
  readonly deviceUuid: string;
  readonly attempt: number;
  readonly jobId: string;
  readonly ran: readonly CleanStep[];
  readonly code: string;
  readonly reason: string;
  readonly failedAt: string;
}

/** An operator cleans the device's clean-failed handles again. */
export interface RetryClean {
  readonly type: 'RetryClean';
  readonly deviceUuid: string;
}

/** An operator offers the device's clean-failed handles again without a clean. */
export interface ReleaseClean {
  readonly type: 'ReleaseClean';
  readonly deviceUuid: string;
  readonly by: string;
  readonly reason: string | null;
}

export type DeviceCleanCommand = RecordCleaned | RecordCleanFailed | RetryClean | ReleaseClean;

const MAX_TEXT = 1024;
const MAX_STEPS = 32;
export const MAX_CLEAN_RELEASE_REASON_LENGTH = 255;

export const isDirty = (cleaning: DeviceCleaning | undefined, handleUuid: string): boolean => cleaning?.handles[handleUuid] !== undefined;

/** Cleaning of handles a tenant's release gave back, for the release's append (nothing when none was released). */
export function cleaningOfRelease(deviceUuid: string, released: readonly AttachHandleClaim[], cleaning: DeviceCleaning | undefined): DeviceCleaningEvent[] {
  if (released.length === 0) return [];
  return [started(deviceUuid, cleaning, released.map((claim) => claim.handleUuid), 'released', released.map((claim) => claim.arqUuid))];
}

/** Handles a fence released: pending until the unfence starts their cleaning (the host's agent may be gone). */
export function pendingOfFence(deviceUuid: string, released: readonly AttachHandleClaim[], reason: string): DeviceCleaningEvent[] {
  if (released.length === 0) return [];
  return [{ type: 'inventory.DeviceCleanPending', data: { deviceUuid, handleUuids: released.map((claim) => claim.handleUuid), reason } }];
}

/** At the unfence: the cleaning of every pending handle, in the unfence's append. */
export function cleaningOfUnfence(deviceUuid: string, cleaning: DeviceCleaning | undefined): DeviceCleaningEvent[] {
  const pending = handlesIn(cleaning, 'pending');
  return pending.length === 0 ? [] : [started(deviceUuid, cleaning, pending, 'unfenced', [])];
}

/**
 * Refuses a claim whose candidates are all taken when some are taken by
 * cleaning: the request hears why (DEVICE_CLEANING), not "no free handle".
 */
export function assertNotCleaning(deviceUuid: string, candidates: readonly string[], cleaning: DeviceCleaning | undefined): void {
  const dirty = candidates.map((uuid) => cleaning?.handles[uuid]).filter((entry): entry is HandleCleaning => entry !== undefined);
  if (dirty.length === 0) return;
  const failed = dirty.find((entry) => entry.status === 'clean-failed');
  throw new DeviceCleaningError(deviceUuid, failed ? 'clean-failed' : dirty[0]!.status, failed?.reason ?? null);
}

export function decideCleaning(deviceUuid: string, command: DeviceCleanCommand, cleaning: DeviceCleaning | undefined, fenced: { hostname: string } | undefined): DeviceCleaningEvent[] {
  switch (command.type) {
    case 'RecordCleaned':
    case 'RecordCleanFailed':
      return decideOutcome(deviceUuid, command, cleaning);
    case 'RetryClean': {
      if (fenced) throw new HostFencedError(fenced.hostname, deviceUuid);
      return [started(deviceUuid, cleaning, failedHandles(deviceUuid, cleaning), 'retry', [])];
    }
    case 'ReleaseClean': {
      const reason = command.reason ?? null;
      if (reason !== null && (typeof reason !== 'string' || reason.length > MAX_CLEAN_RELEASE_REASON_LENGTH)) {
        throw invalid('reason', `must be a string of at most ${MAX_CLEAN_RELEASE_REASON_LENGTH} characters`);
      }
      return [{ type: 'inventory.DeviceCleanReleased', data: { deviceUuid, handleUuids: failedHandles(deviceUuid, cleaning), by: command.by, reason } }];
    }
  }
}

export function evolveCleaning(cleaning: DeviceCleaning | undefined, event: DeviceCleaningEvent): DeviceCleaning {
  const current = cleaning ?? { attempts: 0, handles: {} };
  const set = (uuids: readonly string[], entry: HandleCleaning | undefined) => {
    const handles = { ...current.handles };
    for (const uuid of uuids) {
      if (entry) handles[uuid] = entry;
      else delete handles[uuid];
    }
    return handles;
  };
  switch (event.type) {
    case 'inventory.DeviceCleanPending':
      return { ...current, handles: set(event.data.handleUuids, { status: 'pending', attempt: null, reason: event.data.reason }) };
    case 'inventory.DeviceCleaningStarted':
      return { attempts: event.data.attempt, handles: set(event.data.handleUuids, { status: 'cleaning', attempt: event.data.attempt, reason: null }) };
    case 'inventory.DeviceCleaned':
    case 'inventory.DeviceCleanReleased':
      return { ...current, handles: set(event.data.handleUuids, undefined) };
    case 'inventory.DeviceCleanFailed':
      return { ...current, handles: set(event.data.handleUuids, { status: 'clean-failed', attempt: event.data.attempt, reason: event.data.reason }) };
  }
}

/** Only the handles still cleaning under this attempt take its outcome: a repeat, or an older attempt's late outcome, appends nothing. */
function decideOutcome(deviceUuid: string, command: RecordCleaned | RecordCleanFailed, cleaning: DeviceCleaning | undefined): DeviceCleaningEvent[] {
  if (!Number.isSafeInteger(command.attempt) || command.attempt < 1) throw invalid('attempt', 'must be a positive integer');
  if (!isUuid(command.jobId)) throw invalid('jobId', 'must be a uuid');
  const ran = stepsOf(command.ran);
  const handleUuids = Object.entries(cleaning?.handles ?? {})
    .filter(([, entry]) => entry.status === 'cleaning' && entry.attempt === command.attempt)
    .map(([uuid]) => uuid);
  if (handleUuids.length === 0) return [];
  const outcome = { deviceUuid, attempt: command.attempt, handleUuids, jobId: command.jobId.toLowerCase(), ran };
  if (command.type === 'RecordCleaned') return [{ type: 'inventory.DeviceCleaned', data: { ...outcome, cleanedAt: timeAt(command.cleanedAt, 'cleanedAt') } }];
  return [
    {
      type: 'inventory.DeviceCleanFailed',
      data: { ...outcome, code: textAt(command.code, 'code', 64), reason: textAt(command.reason, 'reason', MAX_TEXT), failedAt: timeAt(command.failedAt, 'failedAt') },
    },
  ];
}

function started(deviceUuid: string, cleaning: DeviceCleaning | undefined, handleUuids: readonly string[], cause: CleaningCause, arqUuids: readonly string[]): DeviceCleaningEvent {
  return { type: 'inventory.DeviceCleaningStarted', data: { deviceUuid, attempt: (cleaning?.attempts ?? 0) + 1, handleUuids, cause, arqUuids } };
}

const handlesIn = (cleaning: DeviceCleaning | undefined, status: HandleCleanStatus): string[] =>
  Object.entries(cleaning?.handles ?? {})
    .filter(([, entry]) => entry.status === status)
    .map(([uuid]) => uuid);

function failedHandles(deviceUuid: string, cleaning: DeviceCleaning | undefined): string[] {
  const failed = handlesIn(cleaning, 'clean-failed');
  if (failed.length === 0) {
    throw new ConflictError(InventoryErrorCodes.CLEAN_NOT_FAILED, `device ${deviceUuid} has no handle whose clean failed`, { deviceUuid });
  }
  return failed;
}

function stepsOf(ran: unknown): CleanStep[] {
  if (!Array.isArray(ran) || ran.length > MAX_STEPS) throw invalid('ran', `must be a list of at most ${MAX_STEPS} steps`);
  return ran.map((step: Partial<CleanStep>, index) => ({
    step: textAt(step?.step, `ran[${index}].step`, 200),
    result: textAt(step?.result, `ran[${index}].result`, MAX_TEXT),
  }));
}

const invalid = (path: string, rule: string) => new ValidationError(InventoryErrorCodes.COMMAND_INVALID, `${path} ${rule}`, { path });

function textAt(value: unknown, path: string, max: number): string {
  if (typeof value !== 'string' || value.length === 0) throw invalid(path, `must be a text of 1–${max} characters`);
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

function timeAt(value: unknown, path: string): string {
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw invalid(path, 'must be an ISO-8601 time');
  return value;
}
