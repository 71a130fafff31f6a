import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AggregateCache, EVENT_STORE, type EventStore } from '@ledger/eventstore';
import type { HostInventoryState } from '../../domain/host-inventory.state';
import { findDeployableOnHost } from '../deployable-on-host';
import type { DeviceCommands } from '../device-commands';
import { DEVICE_COMMANDS, HOST_INVENTORY_CACHE } from '../inventory.tokens';
import { ReleaseCarveCommand, ReserveCarveCommand, type ReservedCarve } from './carve-partition.commands';
import { carveReservationOf } from './carve-reservation';

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
    const reservation = carveReservationOf(await findDeployableOnHost(this.store, this.hostCache, input), input, new Date().toISOString());
    const { state } = await this.devices.run(reservation.command, context);
    return reservation.reservedIn(state);
  }
}

@CommandHandler(ReleaseCarveCommand)
export class ReleaseCarveHandler implements ICommandHandler<ReleaseCarveCommand> {
  constructor(@Inject(DEVICE_COMMANDS) private readonly devices: DeviceCommands) {}

  async execute({ input, context }: ReleaseCarveCommand): Promise<number> {
    return (await this.devices.run({ type: 'ReleaseCarve', ...input }, context)).appended;
  }
}
