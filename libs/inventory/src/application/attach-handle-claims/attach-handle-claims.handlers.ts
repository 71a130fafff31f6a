import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { claimOf } from '../../domain/device.decider';
import type { AttachHandleClaim } from '../../domain/inventory.events';
import type { DeviceCommands } from '../device-commands';
import { DEVICE_COMMANDS } from '../inventory.tokens';
import { ClaimAttachHandleCommand, ReleaseAttachHandleCommand } from './claim-attach-handle.command';

@CommandHandler(ClaimAttachHandleCommand)
export class ClaimAttachHandleHandler implements ICommandHandler<ClaimAttachHandleCommand> {
  constructor(@Inject(DEVICE_COMMANDS) private readonly devices: DeviceCommands) {}

  async execute({ input, context }: ClaimAttachHandleCommand): Promise<AttachHandleClaim> {
    const result = await this.devices.run({ type: 'ClaimAttachHandle', ...input }, context);
    const claim = claimOf(result.state, input.arqUuid.toLowerCase());
    if (!claim) throw new Error(`claim of ${input.arqUuid} missing after a successful ClaimAttachHandle`);
    return claim;
  }
}

@CommandHandler(ReleaseAttachHandleCommand)
export class ReleaseAttachHandleHandler implements ICommandHandler<ReleaseAttachHandleCommand> {
  constructor(@Inject(DEVICE_COMMANDS) private readonly devices: DeviceCommands) {}

  async execute({ input, context }: ReleaseAttachHandleCommand): Promise<number> {
    const result = await this.devices.run({ type: 'ReleaseAttachHandle', ...input }, context);
    return result.appended;
  }
}
