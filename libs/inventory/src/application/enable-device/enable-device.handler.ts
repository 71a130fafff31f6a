import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeviceCommandRunner } from '../device-command.runner';
import type { InventoryCommandResult } from '../inventory-command.result';
import { EnableDeviceCommand } from './enable-device.command';

@CommandHandler(EnableDeviceCommand)
export class EnableDeviceHandler implements ICommandHandler<EnableDeviceCommand> {
  constructor(@Inject(DeviceCommandRunner) private readonly devices: DeviceCommandRunner) {}

  execute({ target, context }: EnableDeviceCommand): Promise<InventoryCommandResult> {
    return this.devices.runMaintenance(target, (deviceUuid) => ({ type: 'EnableDevice', deviceUuid }), context);
  }
}
