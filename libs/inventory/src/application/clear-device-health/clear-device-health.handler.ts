import { Inject, Optional } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { HealthPolicy } from '../../domain/health-policy';
import { DEFAULT_HEALTH_POLICY } from '../../domain/health-policy.default';
import type { DeviceMaintenance } from '../device-maintenance';
import type { InventoryCommandResult } from '../inventory-command.result';
import { DEVICE_MAINTENANCE, HEALTH_POLICY } from '../inventory.tokens';
import { ClearDeviceHealthCommand } from './clear-device-health.command';

/** The clear is recorded for a device its host reports (as maintenance is), by the operator the context names. */
@CommandHandler(ClearDeviceHealthCommand)
export class ClearDeviceHealthHandler implements ICommandHandler<ClearDeviceHealthCommand> {
  constructor(
    @Inject(DEVICE_MAINTENANCE) private readonly maintenance: DeviceMaintenance,
    @Optional() @Inject(HEALTH_POLICY) private readonly policy: HealthPolicy = DEFAULT_HEALTH_POLICY,
  ) {}

  execute({ target, context, clearedAt }: ClearDeviceHealthCommand): Promise<InventoryCommandResult> {
    const at = clearedAt ?? new Date().toISOString();
    const by = context.actor.user;
    const policy = this.policy ?? DEFAULT_HEALTH_POLICY;
    return this.maintenance.run(target, (deviceUuid) => ({ type: 'ClearDeviceHealth', deviceUuid, by, note: target.note ?? null, clearedAt: at, policy }), context);
  }
}
