import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DeviceCommandRunner } from '../device-command.runner';
import type { InventoryCommandResult } from '../inventory-command.result';
import { DisableDeviceCommand } from './disable-device.command';

@CommandHandler(DisableDeviceCommand)
export class DisableDeviceHandler implements ICommandHandler<DisableDeviceCommand> {
  constructor(@Inject(DeviceCommandRunner) private readonly devices: DeviceCommandRunner) {}

  execute({ target, context }: DisableDeviceCommand): Promise<InventoryCommandResult> {
    return this.devices.runMaintenance(target, (deviceUuid) => ({ type: 'DisableDevice', deviceUuid, reason: target.reason ?? null }), context);
  }
}
