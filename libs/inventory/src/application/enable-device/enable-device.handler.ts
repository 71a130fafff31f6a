import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { DeviceMaintenance } from '../device-maintenance';
import type { InventoryCommandResult } from '../inventory-command.result';
import { DEVICE_MAINTENANCE } from '../inventory.tokens';
import { EnableDeviceCommand } from './enable-device.command';

@CommandHandler(EnableDeviceCommand)
export class EnableDeviceHandler implements ICommandHandler<EnableDeviceCommand> {
  constructor(@Inject(DEVICE_MAINTENANCE) private readonly maintenance: DeviceMaintenance) {}

  execute({ target, context }: EnableDeviceCommand): Promise<InventoryCommandResult> {
    return this.maintenance.run(target, (deviceUuid) => ({ type: 'EnableDevice', deviceUuid }), context);
  }
}
