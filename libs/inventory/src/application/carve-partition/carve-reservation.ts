import { ConflictError, NotFoundError } from '@ledger/kernel';
import type { DeviceState } from '../../domain/device.decider';
import { defaultDeployableName } from '../../domain/identity';
import { InventoryErrorCodes } from '../../domain/inventory.errors';
import type { ReserveCarve } from '../../domain/partitioning/device-partitions';
import { carveRoomProfileOf } from '../../domain/partitioning/partition-naming';
import type { DeployableOnHost } from '../deployable-on-host';
import type { ReserveCarveInput, ReservedCarve } from './carve-partition.commands';

/** A bind's carve as the device's stream decides it: the command, and how to read the span it set aside from the state after. */
export interface CarveReservation {
  readonly command: ReserveCarve;
  reservedIn(state: DeviceState): ReservedCarve;
}

/**
 * The ReserveCarve a bind sends for the room provider it was given, from
 * the deployable as its host's stream knows it now (`findDeployableOnHost`;
 * undefined: the host no longer reports it). Shared by the ReserveCarve
 * command and the bind that reserves in its start's own append.
 */
export function carveReservationOf(found: DeployableOnHost | undefined, input: ReserveCarveInput, at: string): CarveReservation {
  if (!found) throw new NotFoundError(InventoryErrorCodes.DEPLOYABLE_NOT_FOUND, `deployable ${input.deployableUuid} is not reported by ${input.hostname}`, { ...input });
  const { device, deployable } = found;
  const partitioning = device.partitioning;
  const profileName = partitioning && carveRoomProfileOf(defaultDeployableName(input.hostname, device.pciAddress), deployable.name);
  const profile = profileName === undefined ? undefined : partitioning?.profiles.find((candidate) => candidate.name === profileName);
  if (!partitioning || !profile) {
    throw new ConflictError(InventoryErrorCodes.NO_ROOM_TO_CARVE, `deployable ${deployable.name} offers no partition to carve`, { deviceUuid: device.uuid });
  }
  return {
    command: { type: 'ReserveCarve', deviceUuid: device.uuid, bindId: input.bindId, arqUuid: input.arqUuid, profile: profile.name, partitioning, at },
    reservedIn: (state) => {
      const span = state.partitions?.reserved[input.bindId.toLowerCase()];
      if (!span) throw new Error(`reservation of bind ${input.bindId} missing after a successful ReserveCarve`);
      return { kind: partitioning.kind, profile: span.profile, profileId: profile.profileId ?? null, start: span.start, slices: span.slices, pciAddress: device.pciAddress };
    },
  };
}
