import { Inject, Optional, type Provider } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { deciderCommandHandler, EVENT_STORE, type EventStore, STREAM_LOCKS, type StreamLocks } from '@ledger/eventstore';
import { ValidationError } from '@ledger/kernel';
import { type HostFenceCommand, hostFenceDecider } from '../../domain/host-fence.decider';
import { InventoryErrorCodes } from '../../domain/inventory.errors';
import { INVENTORY_EVENT_SCHEMA_VERSIONS } from '../../domain/inventory.events';
import { checkedHostStream } from '../../domain/streams';
import type { DeviceCommands } from '../device-commands';
import { toInventoryCommandResult, type InventoryCommandResult } from '../inventory-command.result';
import type { DeviceCleaningPolicy } from '../clean-device/device-cleaning.policy';
import { DEVICE_CLEANING_POLICY, DEVICE_COMMANDS, HOST_FENCE_COMMANDS } from '../inventory.tokens';
import { FenceHostCommand, UnfenceHostCommand } from './fence-host.command';
import { fenceHostDevices, settleHostFence } from './fence-host-devices';

export const MAX_FENCE_REASON_LENGTH = 255;

@CommandHandler(FenceHostCommand)
export class FenceHostHandler implements ICommandHandler<FenceHostCommand> {
  constructor(
    @Inject(HOST_FENCE_COMMANDS) private readonly hosts: HostFenceCommands,
    @Inject(DEVICE_COMMANDS) private readonly devices: DeviceCommands,
    @Optional() @Inject(DEVICE_CLEANING_POLICY) private readonly cleaning?: DeviceCleaningPolicy,
  ) {}

  async execute({ target, context }: FenceHostCommand): Promise<InventoryCommandResult> {
    const { hostname, reason } = target;
    if (typeof reason !== 'string' || reason.trim() === '' || reason.length > MAX_FENCE_REASON_LENGTH) {
      throw new ValidationError(InventoryErrorCodes.COMMAND_INVALID, `reason must be a non-empty string of at most ${MAX_FENCE_REASON_LENGTH} characters`, {
        path: 'reason',
      });
    }
    const command: HostFenceCommand = { type: 'FenceHost', hostname, reason, by: context.actor.user, at: new Date().toISOString() };
    const result = await this.hosts.run(command, context);
    // The fence in force (this one, or an earlier one a retry completes) reaches every device.
    await fenceHostDevices((command, ctx) => this.devices.run(command, ctx), result.state, context, this.cleaning);
    return toInventoryCommandResult(result);
  }
}

@CommandHandler(UnfenceHostCommand)
export class UnfenceHostHandler implements ICommandHandler<UnfenceHostCommand> {
  constructor(
    @Inject(HOST_FENCE_COMMANDS) private readonly hosts: HostFenceCommands,
    @Inject(DEVICE_COMMANDS) private readonly devices: DeviceCommands,
  ) {}

  async execute({ target, context }: UnfenceHostCommand): Promise<InventoryCommandResult> {
    const result = await this.hosts.run({ type: 'UnfenceHost', hostname: target.hostname, by: context.actor.user, at: new Date().toISOString() }, context);
    await settleHostFence((command, ctx) => this.devices.run(command, ctx), result.state, context);
    return toInventoryCommandResult(result);
  }
}

/** Fence and unfence on the host's stream, queued with its other writers. */
function hostFenceCommands(store: EventStore, locks: StreamLocks) {
  return deciderCommandHandler(store, {
    decider: hostFenceDecider,
    streamOf: (command: HostFenceCommand) => checkedHostStream(command.hostname),
    locks,
    schemaVersions: INVENTORY_EVENT_SCHEMA_VERSIONS,
  });
}

export type HostFenceCommands = ReturnType<typeof hostFenceCommands>;

export const hostFenceCommandsProvider: Provider = { provide: HOST_FENCE_COMMANDS, inject: [EVENT_STORE, STREAM_LOCKS], useFactory: hostFenceCommands };
