import { ConflictError, isUuid, ValidationError } from '@ledger/kernel';
import type { ReportedPartitioning } from '../host-report';
import { InventoryErrorCodes } from '../inventory.errors';
import type { DevicePartitionEvent, PartitionCarved, PartitionDestroyed, PartitionSpan } from '../inventory.events';
import { carvableSpans } from './partition-layout';
import { evolveReclaim, forgetDestroyedHandle, type PartitionHandleState } from './partition-reclaim';

/**
 * Set aside slices of the device for a bind's carve of `profile`.
 * `partitioning` is what the device's last report says (the host stream's):
 * the span is chosen among the slices neither carved there nor set aside
 * here, lowest first.
 */
export interface ReserveCarve {
  readonly type: 'ReserveCarve';
  readonly deviceUuid: string;
  readonly bindId: string;
  readonly arqUuid: string;
  readonly profile: string;
  readonly partitioning: ReportedPartitioning;
  readonly at: string;
}

/** Give back the slices a bind set aside and did not carve (nothing set aside: nothing appended). */
export interface ReleaseCarve {
  readonly type: 'ReleaseCarve';
  readonly deviceUuid: string;
  readonly bindId: string;
}

/** What finished carve and destroy jobs did, sent by the job-facts reactor; idempotent by job id. */
export type RecordPartitionCarved = { readonly type: 'RecordPartitionCarved' } & PartitionCarved['data'];
export type RecordPartitionDestroyed = { readonly type: 'RecordPartitionDestroyed' } & PartitionDestroyed['data'];

export type DevicePartitionCommand = ReserveCarve | ReleaseCarve | RecordPartitionCarved | RecordPartitionDestroyed;

/** A partition carved on this device, by its handle. */
export interface CarvedPartition extends PartitionSpan {
  readonly handle: string;
  /** The bind that carved it on demand; null when none did. */
  readonly bindId: string | null;
  readonly carvedAt: string;
}

export interface DevicePartitions {
  /** Slices set aside for carves in flight, by bind id. */
  readonly reserved: Readonly<Record<string, PartitionSpan & { readonly arqUuid: string }>>;
  /** Partitions carved by jobs and not destroyed, by handle. */
  readonly carved: Readonly<Record<string, CarvedPartition>>;
  /** The partition job each fact came from, so a re-sent outcome appends nothing. */
  readonly jobs: Readonly<Record<string, DevicePartitionEvent['type']>>;
  /** Absent until a claim named a partition: the partitions' attach handles, by handle uuid, and their idle periods and reclaims (partition-reclaim.ts). */
  readonly handles?: Readonly<Record<string, PartitionHandleState>>;
}

export const noPartitions = (): DevicePartitions => ({ reserved: {}, carved: {}, jobs: {} });

export function decideDevicePartitions(deviceUuid: string, command: DevicePartitionCommand, state: DevicePartitions): DevicePartitionEvent[] {
  switch (command.type) {
    case 'ReserveCarve':
      return decideReserve(deviceUuid, command, state);
    case 'ReleaseCarve': {
      const reserved = state.reserved[command.bindId];
      if (!reserved) return [];
      const { profile, start, slices } = reserved;
      return [{ type: 'inventory.PartitionCarveReleased', data: { deviceUuid, bindId: command.bindId, profile, start, slices } }];
    }
    case 'RecordPartitionCarved': {
      const { type: _type, ...data } = command;
      return state.jobs[uuidAt(data.jobId, 'jobId')] ? [] : [{ type: 'inventory.PartitionCarved', data: { ...data, deviceUuid } }];
    }
    case 'RecordPartitionDestroyed': {
      const { type: _type, ...data } = command;
      return state.jobs[uuidAt(data.jobId, 'jobId')] ? [] : [{ type: 'inventory.PartitionDestroyed', data: { ...data, deviceUuid } }];
    }
  }
}

export function evolveDevicePartitions(state: DevicePartitions = noPartitions(), event: DevicePartitionEvent): DevicePartitions {
  switch (event.type) {
    case 'inventory.PartitionCarveReserved': {
      const { bindId, arqUuid, profile, start, slices } = event.data;
      return { ...state, reserved: { ...state.reserved, [bindId]: { arqUuid, profile, start, slices } } };
    }
    case 'inventory.PartitionCarveReleased':
      return { ...state, reserved: without(state.reserved, event.data.bindId) };
    case 'inventory.PartitionCarved': {
      const { handle, profile, start, slices, bindId, carvedAt, jobId } = event.data;
      const reserved = bindId === null ? state.reserved : without(state.reserved, bindId);
      return { ...state, reserved, carved: { ...state.carved, [handle]: { handle, profile, start, slices, bindId, carvedAt } }, jobs: { ...state.jobs, [jobId]: event.type } };
    }
    case 'inventory.PartitionDestroyed':
      return forgetDestroyedHandle({ ...state, carved: without(state.carved, event.data.handle), jobs: { ...state.jobs, [event.data.jobId]: event.type } }, event.data.handle);
    case 'inventory.PartitionIdle':
    case 'inventory.PartitionReclaimClaimed':
    case 'inventory.PartitionReclaimReleased':
      return evolveReclaim(state, event);
  }
}

function decideReserve(deviceUuid: string, command: ReserveCarve, state: DevicePartitions): DevicePartitionEvent[] {
  const bindId = uuidAt(command.bindId, 'bindId');
  if (state.reserved[bindId]) return [];
  const taken = takenSpans(command.partitioning, state);
  const [span] = carvableSpans(command.partitioning, command.profile, taken);
  if (!span) {
    throw new ConflictError(InventoryErrorCodes.NO_ROOM_TO_CARVE, `device ${deviceUuid} has no room to carve a ${command.profile} partition`, {
      deviceUuid,
      profile: command.profile,
    });
  }
  const data = { deviceUuid, bindId, arqUuid: uuidAt(command.arqUuid, 'arqUuid'), profile: command.profile, ...span, reservedAt: command.at };
  return [{ type: 'inventory.PartitionCarveReserved', data }];
}

/**
 * The spans not free to carve: what the report shows carved, what jobs
 * carved since (the next report shows them), and what binds set aside.
 * One span counted once: a carve the report already shows is the same span.
 */
export function takenSpans(partitioning: ReportedPartitioning, state: DevicePartitions): PartitionSpan[] {
  const byStart = new Map<number, PartitionSpan>();
  for (const span of [...partitioning.partitions, ...Object.values(state.carved), ...Object.values(state.reserved)]) {
    byStart.set(span.start, { profile: span.profile, start: span.start, slices: span.slices });
  }
  return [...byStart.values()];
}

const without = <T>(record: Readonly<Record<string, T>>, key: string): Readonly<Record<string, T>> => {
  const { [key]: _gone, ...rest } = record;
  return rest;
};

function uuidAt(value: unknown, path: string): string {
  if (!isUuid(value)) throw new ValidationError(InventoryErrorCodes.COMMAND_INVALID, `${path} must be a uuid`, { path });
  return value.toLowerCase();
}
