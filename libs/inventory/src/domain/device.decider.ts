import { ConflictError, type Decider, isUuid, ValidationError } from '@ledger/kernel';
import { assertNotCleaning, cleaningOfRelease, cleaningOfUnfence, type DeviceCleanCommand, type DeviceCleaning, decideCleaning, evolveCleaning, isDirty, pendingOfFence } from './device-cleaning';
import type { DeviceHealthRecord } from './device-health';
import { decideHealthClear, decideHealthReport, type DeviceHealthCommand, evolveDeviceHealth } from './health-policy.decide';
import { effectReserves } from './health-policy';
import { type DeviceJobCommand, type DeviceJobFacts, decideDeviceJobFact, evolveDeviceJobFacts } from './device-job-facts';
import { DeviceUnhealthyError, HostFencedError, InventoryErrorCodes } from './inventory.errors';
import type { AttachHandleClaim, DeviceCleaned, DeviceEvent, PartitionRef } from './inventory.events';
import { decideDevicePartitions, type DevicePartitionCommand, type DevicePartitions, evolveDevicePartitions, noPartitions } from './partitioning/device-partitions';
import { decideReclaim, evolveClaimedPartition, idleOfCleaned, idleOfRelease, type PartitionReclaimCommand, reclaiming } from './partitioning/partition-reclaim';

export const MAX_DISABLE_REASON_LENGTH = 255;

/** Put a device in maintenance (Cyborg's `maintaining`): known, but not offered. */
export interface DisableDevice {
  readonly type: 'DisableDevice';
  readonly deviceUuid: string;
  readonly reason: string | null;
}

export interface EnableDevice {
  readonly type: 'EnableDevice';
  readonly deviceUuid: string;
}

/**
 * Take a free attach handle of one deployable of the device for an
 * accelerator request. `candidates` are the deployable's handle uuids in
 * order of preference, from the inventory read model; which of them are free
 * is decided here, on the device's own stream, so two binds never get one.
 */
export interface ClaimAttachHandle {
  readonly type: 'ClaimAttachHandle';
  readonly deviceUuid: string;
  readonly deployableUuid: string;
  readonly arqUuid: string;
  readonly candidates: readonly string[];
  /** The bind claiming: a claim the request holds for another bind is stale, and is given back first. */
  readonly bindId?: string;
  /** The request's project, kept on the claim so that a drain can name the holder's project from the device's stream alone. */
  readonly projectId?: string;
  /** The candidates are one partition's handle (a bind claiming what it carved): recorded on the claim. */
  readonly partition?: PartitionRef;
}

/** Give back whatever the request holds on this device (nothing held: nothing appended). */
export interface ReleaseAttachHandle {
  readonly type: 'ReleaseAttachHandle';
  readonly deviceUuid: string;
  readonly arqUuid: string;
  /** Only the claim of this bind (a stale undo never releases a newer bind's handle); absent: any. */
  readonly bindId?: string;
  /** The device's type cleans after a release (LEDGER_CLEAN_DEVICE_TYPES): the released handle goes to cleaning in the same append. */
  readonly clean?: boolean;
  /** LEDGER_PARTITION_RECLAIM's wait: a partition carved on demand released here goes idle, to be reclaimed after it (absent: kept). */
  readonly reclaimAfterMs?: number;
}

export type { ClearDeviceHealth, RecordDeviceHealth } from './health-policy.decide';

/** The device's host is fenced: give back every hold on it with the fence's reason and refuse claims until UnfenceDevice. */
export interface FenceDevice {
  readonly type: 'FenceDevice';
  readonly deviceUuid: string;
  readonly hostname: string;
  readonly reason: string;
  /** The HostFenced's `at`, for the record. */
  readonly fencedAt: string;
  /** The device's type cleans after a release: the released handles are pending a clean, started at the unfence. */
  readonly clean?: boolean;
}

/** The device's host was unfenced: what the fence released starts cleaning in the same append. */
export interface UnfenceDevice {
  readonly type: 'UnfenceDevice';
  readonly deviceUuid: string;
  readonly hostname: string;
}

export type DeviceMaintenanceCommand = DisableDevice | EnableDevice;
export type DeviceCommand =
  | DeviceMaintenanceCommand
  | ClaimAttachHandle
  | ReleaseAttachHandle
  | DeviceHealthCommand
  | DeviceJobCommand
  | FenceDevice
  | UnfenceDevice
  | DevicePartitionCommand
  | PartitionReclaimCommand
  | DeviceCleanCommand;

export type DeviceStatus = 'enabled' | 'maintaining';

export interface DeviceState {
  readonly status: DeviceStatus;
  readonly reason: string | null;
  /** Claims held, by handle uuid. */
  readonly claims: Readonly<Record<string, AttachHandleClaim>>;
  /** Absent until a health other than `ok` is recorded: a device starts healthy. Judged by the health policy (health-policy.decide.ts). */
  readonly health?: DeviceHealthRecord;
  /** Absent until a finished job made a fact here: which fact each job made, so a re-sent outcome appends nothing. */
  readonly jobFacts?: DeviceJobFacts;
  /** Absent unless the host is fenced: the fence in force. */
  readonly fenced?: { readonly hostname: string; readonly reason: string; readonly fencedAt: string };
  /** Absent until a partition is set aside or carved here (docs/partitions.md). */
  readonly partitions?: DevicePartitions;
  /** Absent until a handle was released for cleaning: the dirty handles (device-cleaning.ts). */
  readonly cleaning?: DeviceCleaning;
}

/** The claim a request holds on the device, if any. */
export const claimOf = (state: DeviceState, arqUuid: string): AttachHandleClaim | undefined =>
  Object.values(state.claims).find((claim) => claim.arqUuid === arqUuid);

/**
 * One device (stream `device-<uuid>`): its maintenance status, the claims
 * on its attach handles, and what finished jobs did to it (programmed
 * regions and shell, VFs). Every command is idempotent: disabling a disabled
 * device, claiming for a request that already holds a handle, releasing
 * what is not held, or recording a job's outcome again appends nothing.
 */
export const deviceDecider: Decider<DeviceCommand, DeviceState, DeviceEvent> = {
  decide(command, state) {
    const deviceUuid = uuidOf(command.deviceUuid, 'deviceUuid');
    switch (command.type) {
      case 'EnableDevice':
        return state.status === 'enabled' ? [] : [{ type: 'inventory.DeviceEnabled', data: { deviceUuid } }];
      case 'DisableDevice':
        return decideDisable(deviceUuid, command.reason ?? null, state);
      case 'ClaimAttachHandle':
        return decideClaim(deviceUuid, command, state);
      case 'RecordDeviceHealth':
        return decideHealthReport(deviceUuid, command, state.health, Object.values(state.claims));
      case 'ClearDeviceHealth':
        return decideHealthClear(deviceUuid, command, state.health);
      case 'RecordRegionProgrammed':
      case 'RecordRegionProgramFailed':
      case 'RecordShellProgrammed':
      case 'RecordVfsConfigured':
        return decideDeviceJobFact(deviceUuid, command, state.jobFacts ?? {});
      case 'FenceDevice':
        return decideFence(deviceUuid, command, state);
      case 'UnfenceDevice':
        return state.fenced ? [{ type: 'inventory.DeviceUnfenced', data: { deviceUuid, hostname: state.fenced.hostname } }, ...cleaningOfUnfence(deviceUuid, state.cleaning)] : [];
      case 'ReserveCarve':
        // Carving for a bind is a claim on the device: refused where a claim would be.
        assertClaimable(deviceUuid, state);
        return decideDevicePartitions(deviceUuid, command, state.partitions ?? noPartitions());
      case 'ReleaseCarve':
      case 'RecordPartitionCarved':
      case 'RecordPartitionDestroyed':
        return decideDevicePartitions(deviceUuid, command, state.partitions ?? noPartitions());
      case 'ReleaseAttachHandle': {
        const arqUuid = uuidOf(command.arqUuid, 'arqUuid');
        const claims = Object.values(state.claims).filter((claim) => claim.arqUuid === arqUuid && sameBind(claim, command.bindId));
        const released = claims.map((claim) => ({ type: 'inventory.AttachHandleReleased' as const, data: claim }));
        const clean = command.clean === true;
        const idle = idleOfRelease(deviceUuid, claims, state.partitions, { idleMs: command.reclaimAfterMs, clean, undoOfBind: command.bindId });
        return [...released, ...(clean ? cleaningOfRelease(deviceUuid, claims, state.cleaning) : []), ...idle];
      }
      case 'ClaimReclaim':
      case 'ReleaseReclaim':
        return decideReclaim(deviceUuid, command, state.partitions ?? noPartitions(), {
          claimed: (handleUuid) => state.claims[handleUuid] !== undefined,
          dirty: (handleUuid) => isDirty(state.cleaning, handleUuid),
          fenced: state.fenced !== undefined,
        });
      case 'RecordCleaned': {
        const events = decideCleaning(deviceUuid, command, state.cleaning, state.fenced);
        const cleaned = events.filter((event): event is DeviceCleaned => event.type === 'inventory.DeviceCleaned');
        return [...events, ...idleOfCleaned(deviceUuid, cleaned, state.partitions)];
      }
      case 'RecordCleanFailed':
      case 'RetryClean':
      case 'ReleaseClean':
        return decideCleaning(deviceUuid, command, state.cleaning, state.fenced);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'inventory.DeviceDisabled':
        return { ...state, status: 'maintaining', reason: event.data.reason };
      case 'inventory.DeviceEnabled':
        return { ...state, status: 'enabled', reason: null };
      case 'inventory.AttachHandleClaimed': {
        const partitions = state.partitions && evolveClaimedPartition(state.partitions, event.data);
        const claimed = { ...state, claims: { ...state.claims, [event.data.handleUuid]: event.data } };
        if (partitions) return { ...claimed, partitions };
        return event.data.partition ? { ...claimed, partitions: evolveClaimedPartition(noPartitions(), event.data) } : claimed;
      }
      case 'inventory.AttachHandleReleased': {
        const { [event.data.handleUuid]: _released, ...claims } = state.claims;
        return { ...state, claims };
      }
      case 'inventory.DeviceHealthChanged':
      case 'inventory.DeviceHealthCheckPassed':
      case 'inventory.DeviceDrainRequested':
        return { ...state, health: evolveDeviceHealth(state.health, event) };
      case 'inventory.RegionProgrammed':
      case 'inventory.RegionProgramFailed':
      case 'inventory.ShellProgrammed':
      case 'inventory.VfsConfigured':
        return { ...state, jobFacts: evolveDeviceJobFacts(state.jobFacts, event) };
      case 'inventory.DeviceFenced': {
        const { hostname, reason, fencedAt } = event.data;
        return { ...state, fenced: { hostname, reason, fencedAt } };
      }
      case 'inventory.DeviceUnfenced': {
        const { fenced: _ended, ...rest } = state;
        return rest;
      }
      case 'inventory.PartitionCarveReserved':
      case 'inventory.PartitionCarveReleased':
      case 'inventory.PartitionCarved':
      case 'inventory.PartitionDestroyed':
      case 'inventory.PartitionIdle':
      case 'inventory.PartitionReclaimClaimed':
      case 'inventory.PartitionReclaimReleased':
        return { ...state, partitions: evolveDevicePartitions(state.partitions, event) };
      case 'inventory.DeviceCleanPending':
      case 'inventory.DeviceCleaningStarted':
      case 'inventory.DeviceCleaned':
      case 'inventory.DeviceCleanFailed':
      case 'inventory.DeviceCleanReleased':
        return { ...state, cleaning: evolveCleaning(state.cleaning, event) };
      default:
        return state;
    }
  },
  initialState: () => ({ status: 'enabled', reason: null, claims: {} }),
};

function decideDisable(deviceUuid: string, reason: string | null, state: DeviceState): DeviceEvent[] {
  if (reason !== null && (typeof reason !== 'string' || reason.length > MAX_DISABLE_REASON_LENGTH)) {
    const rule = `reason must be a string of at most ${MAX_DISABLE_REASON_LENGTH} characters`;
    throw new ValidationError(InventoryErrorCodes.COMMAND_INVALID, rule, { path: 'reason' });
  }
  return state.status === 'maintaining' ? [] : [{ type: 'inventory.DeviceDisabled', data: { deviceUuid, reason } }];
}

function decideClaim(deviceUuid: string, command: ClaimAttachHandle, state: DeviceState): DeviceEvent[] {
  const arqUuid = uuidOf(command.arqUuid, 'arqUuid');
  const deployableUuid = uuidOf(command.deployableUuid, 'deployableUuid');
  const held = claimOf(state, arqUuid);
  if (held && sameBind(held, command.bindId)) return [];
  const stale: DeviceEvent[] = held ? [{ type: 'inventory.AttachHandleReleased', data: held }] : [];
  assertClaimable(deviceUuid, state);
  const candidates = command.candidates.map((uuid) => uuid.toLowerCase());
  const free = candidates.find(
    (uuid) => (state.claims[uuid] === undefined && !isDirty(state.cleaning, uuid) && !reclaiming(state.partitions, uuid)) || (held !== undefined && state.claims[uuid] === held),
  );
  if (free === undefined) {
    assertNotCleaning(deviceUuid, candidates, state.cleaning);
    throw new ConflictError(InventoryErrorCodes.NO_FREE_ATTACH_HANDLE, `deployable ${deployableUuid} has no free attach handle`, {
      deviceUuid,
      deployableUuid,
    });
  }
  const bind = command.bindId === undefined ? {} : { bindId: command.bindId };
  const project = command.projectId === undefined ? {} : { projectId: command.projectId };
  const partition = command.partition ? { partition: command.partition } : {};
  return [...stale, { type: 'inventory.AttachHandleClaimed', data: { deviceUuid, deployableUuid, handleUuid: free, arqUuid, ...bind, ...project, ...partition } }];
}

/** A device in maintenance, fenced or failed offers nothing to claim (or carve). */
function assertClaimable(deviceUuid: string, state: DeviceState): void {
  if (state.status === 'maintaining') {
    throw new ConflictError(InventoryErrorCodes.DEVICE_IN_MAINTENANCE, `device ${deviceUuid} is in maintenance and offers no attach handles`, {
      deviceUuid,
    });
  }
  if (state.fenced) throw new HostFencedError(state.fenced.hostname, deviceUuid);
  // The health policy's effect decides: `watch` still offers the device (Placement too), `reserve` and `drain` do not.
  if (state.health && effectReserves(state.health.effect)) throw new DeviceUnhealthyError(deviceUuid, state.health.reason);
}

/** The fence and the release of every hold, in one append: no claim can slip between them. */
function decideFence(deviceUuid: string, command: FenceDevice, state: DeviceState): DeviceEvent[] {
  if (state.fenced) return [];
  const { hostname, reason, fencedAt } = command;
  const claims = Object.values(state.claims);
  const released = claims.map((claim) => ({ type: 'inventory.AttachHandleReleased' as const, data: { ...claim, reason } }));
  const pending = command.clean ? pendingOfFence(deviceUuid, claims, reason) : [];
  return [{ type: 'inventory.DeviceFenced', data: { deviceUuid, hostname, reason, fencedAt } }, ...released, ...pending];
}

/** A claim belongs to `bindId` when either names no bind (claims and commands from before workflows). */
const sameBind = (claim: AttachHandleClaim, bindId: string | undefined): boolean => bindId === undefined || claim.bindId === undefined || claim.bindId === bindId;

function uuidOf(value: string, path: string): string {
  if (!isUuid(value)) throw new ValidationError(InventoryErrorCodes.COMMAND_INVALID, `${path} must be a uuid`, { path });
  return value.toLowerCase();
}
