import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeviceMaintenanceRunner } from '../device-maintenance.runner';
import type { InventoryCommandResult } from '../inventory-command.result';
import { EnableDeviceCommand } from './enable-device.command';

@CommandHandler(EnableDeviceCommand)
export class EnableDeviceHandler implements ICommandHandler<EnableDeviceCommand> {
  constructor(@Inject(DeviceMaintenanceRunner) private readonly maintenance: DeviceMaintenanceRunner) {}

  execute({ target, context }: EnableDeviceCommand): Promise<InventoryCommandResult> {
    return this.maintenance.run(target, (deviceUuid) => ({ type: 'EnableDevice', deviceUuid }), context);
  }
}
