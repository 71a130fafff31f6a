import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { DeviceCommands } from '../device-commands';
import { toInventoryCommandResult, type InventoryCommandResult } from '../inventory-command.result';
import { DEVICE_COMMANDS } from '../inventory.tokens';
import { ReleaseCleanCommand, RetryCleanCommand } from './clean-device.command';

@CommandHandler(RetryCleanCommand)
export class RetryCleanHandler implements ICommandHandler<RetryCleanCommand> {
  constructor(@Inject(DEVICE_COMMANDS) private readonly devices: DeviceCommands) {}

  async execute({ target, context }: RetryCleanCommand): Promise<InventoryCommandResult> {
    return toInventoryCommandResult(await this.devices.run({ type: 'RetryClean', deviceUuid: target.deviceUuid }, context));
  }
}

@CommandHandler(ReleaseCleanCommand)
export class ReleaseCleanHandler implements ICommandHandler<ReleaseCleanCommand> {
  constructor(@Inject(DEVICE_COMMANDS) private readonly devices: DeviceCommands) {}

  async execute({ target, context }: ReleaseCleanCommand): Promise<InventoryCommandResult> {
    const command = { type: 'ReleaseClean', deviceUuid: target.deviceUuid, by: context.actor.user, reason: target.reason ?? null } as const;
    return toInventoryCommandResult(await this.devices.run(command, context));
  }
}
