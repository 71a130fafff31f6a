import { deciderSpec } from './testing/decider-spec';
import { deviceMaintenanceDecider } from './device-maintenance.decider';
import type { DeviceMaintenanceEvent } from './inventory.events';

const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
const spec = deciderSpec(deviceMaintenanceDecider);
const disabled: DeviceMaintenanceEvent = { type: 'inventory.DeviceDisabled', data: { deviceUuid: DEVICE, reason: 'fan failure' } };
const enabled: DeviceMaintenanceEvent = { type: 'inventory.DeviceEnabled', data: { deviceUuid: DEVICE } };

describe('deviceMaintenanceDecider', () => {
  it('disables an enabled device', () => {
    spec.given([]).when({ type: 'DisableDevice', deviceUuid: DEVICE, reason: 'fan failure' }).then([disabled]);
  });

  it('appends nothing when disabling a disabled device, whatever the reason', () => {
    spec.given([disabled]).when({ type: 'DisableDevice', deviceUuid: DEVICE, reason: 'another reason' }).then([]);
  });

  it('enables a disabled device', () => {
    spec.given([disabled]).when({ type: 'EnableDevice', deviceUuid: DEVICE }).then([enabled]);
  });

  it('appends nothing when enabling an enabled device', () => {
    spec.given([]).when({ type: 'EnableDevice', deviceUuid: DEVICE }).then([]);
    spec.given([disabled, enabled]).when({ type: 'EnableDevice', deviceUuid: DEVICE }).then([]);
  });

  it('disables again after an enable, and records a missing reason as null', () => {
    spec
      .given([disabled, enabled])
      .when({ type: 'DisableDevice', deviceUuid: DEVICE.toUpperCase(), reason: null })
      .then([{ type: 'inventory.DeviceDisabled', data: { deviceUuid: DEVICE, reason: null } }]);
  });

  it('ignores device events it does not own', () => {
    const claim = { type: 'inventory.AttachHandleClaimed', data: {} } as unknown as DeviceMaintenanceEvent;
    expect(spec.given([disabled, claim]).state).toEqual({ status: 'maintaining', reason: 'fan failure' });
  });

  it('refuses a malformed uuid or an overlong reason', () => {
    spec.given([]).when({ type: 'DisableDevice', deviceUuid: 'gpu-1', reason: null }).thenThrows('INVENTORY.COMMAND_INVALID', { path: 'deviceUuid' });
    spec
      .given([])
      .when({ type: 'DisableDevice', deviceUuid: DEVICE, reason: 'x'.repeat(256) })
      .thenThrows('INVENTORY.COMMAND_INVALID', { path: 'reason' });
  });
});
