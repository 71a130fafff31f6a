import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeviceMaintenanceRunner } from '../device-maintenance.runner';
import type { InventoryCommandResult } from '../inventory-command.result';
import { DisableDeviceCommand } from './disable-device.command';

@CommandHandler(DisableDeviceCommand)
export class DisableDeviceHandler implements ICommandHandler<DisableDeviceCommand> {
  constructor(@Inject(DeviceMaintenanceRunner) private readonly maintenance: DeviceMaintenanceRunner) {}

  execute({ target, context }: DisableDeviceCommand): Promise<InventoryCommandResult> {
    return this.maintenance.run(target, (deviceUuid) => ({ type: 'DisableDevice', deviceUuid, reason: target.reason ?? null }), context);
  }
}
