import { Inject, Optional } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { claimOf } from '../../domain/device.decider';
import type { AttachHandleClaim } from '../../domain/inventory.events';
import type { DeviceCommands } from '../device-commands';
import type { DeviceCleaningPolicy } from '../clean-device/device-cleaning.policy';
import { DEVICE_CLEANING_POLICY, DEVICE_COMMANDS, PARTITION_RECLAIM_IDLE_MS, type PartitionReclaimIdleMs } from '../inventory.tokens';
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

/**
 * A release by a tenant (unbind, delete, a failed bind's undo): the handle
 * goes to cleaning in the same append when its device type cleans, and a
 * partition carved on demand goes idle, to be reclaimed, when
 * LEDGER_PARTITION_RECLAIM says so.
 */
@CommandHandler(ReleaseAttachHandleCommand)
export class ReleaseAttachHandleHandler implements ICommandHandler<ReleaseAttachHandleCommand> {
  constructor(
    @Inject(DEVICE_COMMANDS) private readonly devices: DeviceCommands,
    // Absent in a command side without the app's settings (module fixtures): nothing cleans there.
    @Optional() @Inject(DEVICE_CLEANING_POLICY) private readonly cleaning?: DeviceCleaningPolicy,
    @Optional() @Inject(PARTITION_RECLAIM_IDLE_MS) private readonly reclaimIdleMs?: PartitionReclaimIdleMs,
  ) {}

  async execute({ input, context }: ReleaseAttachHandleCommand): Promise<number> {
    const clean = (await this.cleaning?.cleansAfterRelease(input.deviceUuid)) ?? false;
    const reclaim = this.reclaimIdleMs === undefined || this.reclaimIdleMs === null ? {} : { reclaimAfterMs: this.reclaimIdleMs };
    const result = await this.devices.run({ type: 'ReleaseAttachHandle', ...input, clean, ...reclaim }, context);
    return result.appended;
  }
}
