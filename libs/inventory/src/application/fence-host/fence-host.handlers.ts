import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type CommandContext, EVENT_STORE, type EventStore, handleCommand } from '@ledger/eventstore';
import { ValidationError } from '@ledger/kernel';
import { type HostFenceCommand, hostFenceDecider } from '../../domain/host-fence.decider';
import { hostnameProblem } from '../../domain/hostname';
import { InventoryErrorCodes } from '../../domain/inventory.errors';
import { INVENTORY_EVENT_SCHEMA_VERSIONS } from '../../domain/inventory.events';
import { hostStream } from '../../domain/streams';
import type { DeviceCommands } from '../device-commands';
import { toInventoryCommandResult, type InventoryCommandResult } from '../inventory-command.result';
import { DEVICE_COMMANDS } from '../inventory.tokens';
import { FenceHostCommand, UnfenceHostCommand } from './fence-host.command';

export const MAX_FENCE_REASON_LENGTH = 255;

@CommandHandler(FenceHostCommand)
export class FenceHostHandler implements ICommandHandler<FenceHostCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DEVICE_COMMANDS) private readonly devices: DeviceCommands,
  ) {}

  async execute({ target, context }: FenceHostCommand): Promise<InventoryCommandResult> {
    const { hostname, reason } = target;
    if (typeof reason !== 'string' || reason.trim() === '' || reason.length > MAX_FENCE_REASON_LENGTH) {
      throw new ValidationError(InventoryErrorCodes.COMMAND_INVALID, `reason must be a non-empty string of at most ${MAX_FENCE_REASON_LENGTH} characters`, {
        path: 'reason',
      });
    }
    const command: HostFenceCommand = { type: 'FenceHost', hostname, reason, by: context.actor.user, at: new Date().toISOString() };
    const result = await runOnHost(this.store, command, context);
    const fence = result.state.fenced!;
    // The fence in force (this one, or an earlier one a retry completes) reaches every device; each release is one append with its DeviceFenced.
    for (const deviceUuid of result.state.devices) {
      await this.devices.run({ type: 'FenceDevice', deviceUuid, hostname: result.state.hostname!, reason: fence.reason, fencedAt: fence.at }, context);
    }
    return toInventoryCommandResult(result);
  }
}

@CommandHandler(UnfenceHostCommand)
export class UnfenceHostHandler implements ICommandHandler<UnfenceHostCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DEVICE_COMMANDS) private readonly devices: DeviceCommands,
  ) {}

  async execute({ target, context }: UnfenceHostCommand): Promise<InventoryCommandResult> {
    const result = await runOnHost(this.store, { type: 'UnfenceHost', hostname: target.hostname, by: context.actor.user, at: new Date().toISOString() }, context);
    for (const deviceUuid of result.state.devices) {
      await this.devices.run({ type: 'UnfenceDevice', deviceUuid, hostname: result.state.hostname! }, context);
    }
    return toInventoryCommandResult(result);
  }
}

async function runOnHost(store: EventStore, command: HostFenceCommand, context: CommandContext) {
  // The stream name comes from the hostname, so it is checked before anything is read.
  const problem = hostnameProblem(command.hostname);
  if (problem) throw new ValidationError(InventoryErrorCodes.COMMAND_INVALID, `hostname ${problem}`, { path: 'hostname' });
  return handleCommand(store, hostStream(command.hostname), hostFenceDecider, command, context, {
    schemaVersions: INVENTORY_EVENT_SCHEMA_VERSIONS,
  });
}
