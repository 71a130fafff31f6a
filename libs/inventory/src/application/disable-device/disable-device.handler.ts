import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { DeviceMaintenance } from '../device-maintenance';
import type { InventoryCommandResult } from '../inventory-command.result';
import { DEVICE_MAINTENANCE } from '../inventory.tokens';
import { DisableDeviceCommand } from './disable-device.command';

@CommandHandler(DisableDeviceCommand)
export class DisableDeviceHandler implements ICommandHandler<DisableDeviceCommand> {
  constructor(@Inject(DEVICE_MAINTENANCE) private readonly maintenance: DeviceMaintenance) {}

  execute({ target, context }: DisableDeviceCommand): Promise<InventoryCommandResult> {
    return this.maintenance.run(target, (deviceUuid) => ({ type: 'DisableDevice', deviceUuid, reason: target.reason ?? null }), context);
  }
}
