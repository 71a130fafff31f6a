import { Inject, Injectable } from '@nestjs/common';
import { typedCommandHandlers, type WorkflowCommandHandlers } from '@ledger/workflows';
import type { DeviceCommands } from '../device-commands';
import { DEVICE_COMMANDS } from '../inventory.tokens';
import type { ReclaimCommand } from './reclaim-workflow';

/** The reclaim's commands on the device's stream; each idempotent by reclaim id. */
@Injectable()
export class ReclaimWorkflowCommands {
  constructor(@Inject(DEVICE_COMMANDS) private readonly devices: DeviceCommands) {}

  handlers(): WorkflowCommandHandlers {
    return typedCommandHandlers<ReclaimCommand>({
      'inventory.ClaimReclaim': (data, context) => this.devices.run({ type: 'ClaimReclaim', ...data, at: new Date().toISOString() }, context).then(({ appended }) => ({ appended })),
      'inventory.ReleaseReclaim': (data, context) => this.devices.run({ type: 'ReleaseReclaim', ...data }, context).then(({ appended }) => ({ appended })),
    });
  }
}
