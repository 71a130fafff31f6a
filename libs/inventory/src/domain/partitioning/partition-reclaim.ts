import { ConflictError } from '@ledger/kernel';
import { InventoryErrorCodes } from '../inventory.errors';
import type { AttachHandleClaim, DeviceCleaned, PartitionIdle, PartitionRef, PartitionReclaimEvent } from '../inventory.events';

/**
 * Reclaim of partitions carved on demand (docs/partitions.md, "Reclaim"):
 * a partition released (and cleaned) is idle; after LEDGER_PARTITION_RECLAIM's
 * wait the reclaim workflow claims its handle here, so no bind can take it,
 * before the agent's destroy job; the job's PartitionDestroyed ends the
 * claim, a failed destroy gives it back.
 */

/** What reclaim reads of the device's partitions (DevicePartitions, which holds this state). */
export interface ReclaimablePartitions {
  readonly carved: Readonly<Record<string, { readonly bindId: string | null }>>;
  readonly handles?: Readonly<Record<string, PartitionHandleState>>;
}

/** What the device's stream knows of one partition's attach handle, by handle uuid. */
export interface PartitionHandleState extends PartitionRef {
  /** PartitionIdle events so far: a reclaim names the idle period it waited on. */
  readonly idleCount: number;
  /** `claimed`: held (or never idle yet); `cleaning`: released, idle once cleaned; `idle`: free since PartitionIdle #idleCount. */
  readonly phase: 'claimed' | 'cleaning' | 'idle';
  /** The wait LEDGER_PARTITION_RECLAIM gave at the release, for the PartitionIdle that follows the clean. */
  readonly idleMs?: number;
  /** The reclaim holding the handle while its destroy job runs. */
  readonly reclaimId?: string;
}

/** Take an idle partition's handle for its reclaim: refused unless it stayed free since idle period `idleCount` began. */
export interface ClaimReclaim {
  readonly type: 'ClaimReclaim';
  readonly deviceUuid: string;
  readonly handleUuid: string;
  readonly reclaimId: string;
  readonly idleCount: number;
  readonly at: string;
}

/** Give back a reclaim's hold (its destroy failed): the partition is offered again. Nothing held: nothing appended. */
export interface ReleaseReclaim {
  readonly type: 'ReleaseReclaim';
  readonly deviceUuid: string;
  readonly handleUuid: string;
  readonly reclaimId: string;
}

export type PartitionReclaimCommand = ClaimReclaim | ReleaseReclaim;

/** What a reclaim decision reads beside the partitions: whether the handle is held, being cleaned, or the host fenced. */
export interface ReclaimContext {
  readonly claimed: (handleUuid: string) => boolean;
  readonly dirty: (handleUuid: string) => boolean;
  readonly fenced: boolean;
}

export function decideReclaim(deviceUuid: string, command: PartitionReclaimCommand, partitions: ReclaimablePartitions, context: ReclaimContext): PartitionReclaimEvent[] {
  const entry = partitions.handles?.[command.handleUuid];
  if (command.type === 'ReleaseReclaim') {
    if (!entry || entry.reclaimId !== command.reclaimId) return [];
    return [{ type: 'inventory.PartitionReclaimReleased', data: { deviceUuid, handle: entry.handle, handleUuid: command.handleUuid, reclaimId: command.reclaimId } }];
  }
  if (entry?.reclaimId === command.reclaimId) return [];
  // A destroyed partition's entry is gone (forgetDestroyedHandle): the entry itself says it is still carved.
  const idle =
    entry !== undefined &&
    entry.phase === 'idle' &&
    entry.idleCount === command.idleCount &&
    entry.reclaimId === undefined &&
    !context.claimed(command.handleUuid) &&
    !context.dirty(command.handleUuid) &&
    !context.fenced;
  if (!entry || !idle) {
    throw new ConflictError(InventoryErrorCodes.PARTITION_NOT_IDLE, `partition handle ${command.handleUuid} of device ${deviceUuid} is not idle since period ${command.idleCount}`, {
      deviceUuid,
      handleUuid: command.handleUuid,
    });
  }
  const { handleUuid, reclaimId, idleCount, at } = command;
  return [{ type: 'inventory.PartitionReclaimClaimed', data: { deviceUuid, handle: entry.handle, handleUuid, reclaimId, idleCount, claimedAt: at } }];
}

/**
 * The PartitionIdle of each released claim on a partition carved on demand,
 * when a reclaim wait is set (`idleMs`); `clean`: the handles go to
 * cleaning first, and the idle period starts at their DeviceCleaned. A
 * bind undoing its own carve (`undoOfBind`) destroys the partition itself.
 * Carved on demand: its carving bind's claim named it (only that claim
 * does), which the stream knows at once, whereas the carve's own fact
 * (PartitionCarved, from the job's result) may still be on its way.
 */
export function idleOfRelease(
  deviceUuid: string,
  released: readonly AttachHandleClaim[],
  partitions: ReclaimablePartitions | undefined,
  release: { readonly idleMs: number | undefined; readonly clean: boolean; readonly undoOfBind: string | undefined },
): PartitionIdle[] {
  const { idleMs, clean, undoOfBind } = release;
  if (idleMs === undefined || !partitions) return [];
  return released.flatMap((claim) => {
    const ref = claim.partition ?? partitions.handles?.[claim.handleUuid];
    if (!ref) return [];
    if (undoOfBind !== undefined && claim.partition !== undefined && claim.bindId === undoOfBind) return [];
    const idleCount = (partitions.handles?.[claim.handleUuid]?.idleCount ?? 0) + 1;
    const { handle, hostname, pciAddress } = ref;
    return [{ type: 'inventory.PartitionIdle' as const, data: { deviceUuid, handle, hostname, pciAddress, handleUuid: claim.handleUuid, idleCount, idleMs, afterClean: clean } }];
  });
}

/** The idle periods that start once the partitions released to cleaning are clean. */
export function idleOfCleaned(deviceUuid: string, cleaned: readonly DeviceCleaned[], partitions: ReclaimablePartitions | undefined): PartitionIdle[] {
  const handles = partitions?.handles ?? {};
  return cleaned.flatMap((event) =>
    event.data.handleUuids.flatMap((handleUuid) => {
      const entry = handles[handleUuid];
      if (!entry || entry.phase !== 'cleaning' || entry.idleMs === undefined) return [];
      const { handle, hostname, pciAddress, idleMs } = entry;
      return [{ type: 'inventory.PartitionIdle' as const, data: { deviceUuid, handle, hostname, pciAddress, handleUuid, idleCount: entry.idleCount + 1, idleMs, afterClean: false } }];
    }),
  );
}

/** A claim names its partition: the stream learns the handle's partition, and a free period ends. */
export function evolveClaimedPartition<P extends ReclaimablePartitions>(partitions: P, claim: AttachHandleClaim): P {
  const known = partitions.handles?.[claim.handleUuid];
  const ref = claim.partition ?? known;
  if (!ref) return partitions;
  const { handle, hostname, pciAddress } = ref;
  return withHandle(partitions, claim.handleUuid, { handle, hostname, pciAddress, idleCount: known?.idleCount ?? 0, phase: 'claimed' });
}

export function evolveReclaim<P extends ReclaimablePartitions>(partitions: P, event: PartitionReclaimEvent): P {
  const { handleUuid } = event.data;
  const entry = partitions.handles?.[handleUuid];
  switch (event.type) {
    case 'inventory.PartitionIdle': {
      const { handle, hostname, pciAddress, idleCount, idleMs, afterClean } = event.data;
      return withHandle(partitions, handleUuid, { handle, hostname, pciAddress, idleCount, phase: afterClean ? 'cleaning' : 'idle', idleMs });
    }
    case 'inventory.PartitionReclaimClaimed':
      return entry ? withHandle(partitions, handleUuid, { ...entry, reclaimId: event.data.reclaimId }) : partitions;
    case 'inventory.PartitionReclaimReleased': {
      if (!entry) return partitions;
      // Offered again, but not reclaimed again until a tenant uses and releases it: a destroy that failed once may fail again.
      const { reclaimId: _given, ...rest } = entry;
      return withHandle(partitions, handleUuid, { ...rest, phase: 'claimed' });
    }
  }
}

/** The destroyed partition's handle is forgotten (its slices may be carved again, under a new handle). */
export function forgetDestroyedHandle<P extends ReclaimablePartitions>(partitions: P, handle: string): P {
  if (!partitions.handles) return partitions;
  const handles = Object.fromEntries(Object.entries(partitions.handles).filter(([, entry]) => entry.handle !== handle));
  return { ...partitions, handles };
}

/** The handle a reclaim holds: no bind may claim it. */
export const reclaiming = (partitions: ReclaimablePartitions | undefined, handleUuid: string): boolean => partitions?.handles?.[handleUuid]?.reclaimId !== undefined;

const withHandle = <P extends ReclaimablePartitions>(partitions: P, handleUuid: string, entry: PartitionHandleState): P => ({
  ...partitions,
  handles: { ...partitions.handles, [handleUuid]: entry },
});
