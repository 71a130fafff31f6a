import { isUuid, ValidationError } from '@ledger/kernel';
import type { Decider } from '../../../eventstore/src/command-handling/decider';
import { InventoryErrorCodes } from './inventory.errors';
import type { DeviceMaintenanceEvent } from './inventory.events';

export const MAX_DISABLE_REASON_LENGTH = 255;

/** Put a device in maintenance (Cyborg's `maintaining`): known, but not offered. */
export interface DisableDevice {
  readonly type: 'DisableDevice';
  readonly deviceUuid: string;
  readonly reason: string | null;
}

export interface EnableDevice {
  readonly type: 'EnableDevice';
  readonly deviceUuid: string;
}

export type DeviceMaintenanceCommand = DisableDevice | EnableDevice;

export type DeviceStatus = 'enabled' | 'maintaining';

export interface DeviceMaintenanceState {
  readonly status: DeviceStatus;
  readonly reason: string | null;
}

/**
 * Maintenance of one device (stream `device-<uuid>`). Both commands are
 * idempotent: disabling a disabled device, or enabling an enabled one,
 * appends nothing (a new reason does not re-disable).
 */
export const deviceMaintenanceDecider: Decider<DeviceMaintenanceCommand, DeviceMaintenanceState, DeviceMaintenanceEvent> = {
  decide(command, state) {
    if (!isUuid(command.deviceUuid)) {
      throw new ValidationError(InventoryErrorCodes.COMMAND_INVALID, 'deviceUuid must be a uuid', { path: 'deviceUuid' });
    }
    const deviceUuid = command.deviceUuid.toLowerCase();
    if (command.type === 'EnableDevice') {
      return state.status === 'enabled' ? [] : [{ type: 'inventory.DeviceEnabled', data: { deviceUuid } }];
    }
    const reason = command.reason ?? null;
    if (reason !== null && (typeof reason !== 'string' || reason.length > MAX_DISABLE_REASON_LENGTH)) {
      const rule = `reason must be a string of at most ${MAX_DISABLE_REASON_LENGTH} characters`;
      throw new ValidationError(InventoryErrorCodes.COMMAND_INVALID, rule, { path: 'reason' });
    }
    return state.status === 'maintaining' ? [] : [{ type: 'inventory.DeviceDisabled', data: { deviceUuid, reason } }];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'inventory.DeviceDisabled':
        return { status: 'maintaining', reason: event.data.reason };
      case 'inventory.DeviceEnabled':
        return { status: 'enabled', reason: null };
      default:
        return state;
    }
  },
  initialState: () => ({ status: 'enabled', reason: null }),
};
