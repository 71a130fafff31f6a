import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AggregateCache, EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { ConflictError, NotFoundError } from '@ledger/kernel';
import type { HostInventoryState } from '../../domain/host-inventory.state';
import { defaultDeployableName } from '../../domain/identity';
import { InventoryErrorCodes } from '../../domain/inventory.errors';
import { carveRoomProfileOf } from '../../domain/partitioning/partition-naming';
import { findDeployableOnHost } from '../deployable-on-host';
import type { DeviceCommands } from '../device-commands';
import { DEVICE_COMMANDS, HOST_INVENTORY_CACHE } from '../inventory.tokens';
import { ReleaseCarveCommand, ReserveCarveCommand, type ReservedCarve } from './carve-partition.commands';

/**
 * Reads the room provider and the device's partitioning from the host's
 * stream (what its agent last reported, not a read model), then lets the
 * device's stream choose the span.
 */
@CommandHandler(ReserveCarveCommand)
export class ReserveCarveHandler implements ICommandHandler<ReserveCarveCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(HOST_INVENTORY_CACHE) private readonly hostCache: AggregateCache<HostInventoryState>,
    @Inject(DEVICE_COMMANDS) private readonly devices: DeviceCommands,
  ) {}

  async execute({ input, context }: ReserveCarveCommand): Promise<ReservedCarve> {
    const found = await findDeployableOnHost(this.store, this.hostCache, input);
    if (!found) throw new NotFoundError(InventoryErrorCodes.DEPLOYABLE_NOT_FOUND, `deployable ${input.deployableUuid} is not reported by ${input.hostname}`, { ...input });
    const { device, deployable } = found;
    const partitioning = device.partitioning;
    const profileName = partitioning && carveRoomProfileOf(defaultDeployableName(input.hostname, device.pciAddress), deployable.name);
    const profile = profileName === undefined ? undefined : partitioning?.profiles.find((candidate) => candidate.name === profileName);
    if (!partitioning || !profile) {
      throw new ConflictError(InventoryErrorCodes.NO_ROOM_TO_CARVE, `deployable ${deployable.name} offers no partition to carve`, { deviceUuid: device.uuid });
    }
    const { state } = await this.devices.run({ type: 'ReserveCarve', deviceUuid: device.uuid, bindId: input.bindId, arqUuid: input.arqUuid, profile: profile.name, partitioning, at: new Date().toISOString() }, context);
    const span = state.partitions?.reserved[input.bindId.toLowerCase()];
    if (!span) throw new Error(`reservation of bind ${input.bindId} missing after a successful ReserveCarve`);
    return { kind: partitioning.kind, profile: span.profile, profileId: profile.profileId ?? null, start: span.start, slices: span.slices, pciAddress: device.pciAddress };
  }
}

@CommandHandler(ReleaseCarveCommand)
export class ReleaseCarveHandler implements ICommandHandler<ReleaseCarveCommand> {
  constructor(@Inject(DEVICE_COMMANDS) private readonly devices: DeviceCommands) {}

  async execute({ input, context }: ReleaseCarveCommand): Promise<number> {
    return (await this.devices.run({ type: 'ReleaseCarve', ...input }, context)).appended;
  }
}
