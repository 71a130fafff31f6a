import { deciderSpec } from '@ledger/eventstore/testing';
import { deviceDecider, type RecordDeviceHealth } from './device.decider';
import type { DeviceEvent } from './inventory.events';

const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
const AT = '2026-03-01T10:00:00.000Z';
const LATER = '2026-03-01T10:00:15.000Z';
const spec = deciderSpec(deviceDecider);
const report = (health: RecordDeviceHealth['health'], reason: string | null = null, observedAt = AT): RecordDeviceHealth => ({
  type: 'RecordDeviceHealth',
  deviceUuid: DEVICE,
  health,
  reason,
  observedAt,
});
const changed = (health: RecordDeviceHealth['health'], reason: string | null = null, observedAt = AT): DeviceEvent => ({
  type: 'inventory.DeviceHealthChanged',
  data: { deviceUuid: DEVICE, health, reason, observedAt },
});

describe('deviceDecider: health', () => {
  it('records nothing for a first ok: a device starts healthy', () => {
    spec.given([]).when(report('ok')).then([]);
  });

  it('records a first degraded or failed health', () => {
    spec.given([]).when(report('degraded', 'ECC double-bit errors')).then([changed('degraded', 'ECC double-bit errors')]);
    spec.given([]).when(report('failed', 'Xid 79')).then([changed('failed', 'Xid 79')]);
  });

  it('records nothing while the level stays, whatever the reason says', () => {
    const degraded = changed('degraded', 'ECC double-bit errors');
    spec.given([degraded]).when(report('degraded', 'ECC double-bit errors', LATER)).then([]);
    spec.given([degraded]).when(report('degraded', '3 ECC errors', LATER)).then([]);
  });

  it('records every change of level, back to ok included', () => {
    const degraded = changed('degraded', 'ECC');
    spec.given([degraded]).when(report('failed', 'Xid 79', LATER)).then([changed('failed', 'Xid 79', LATER)]);
    spec.given([degraded]).when(report('ok', null, LATER)).then([changed('ok', null, LATER)]);
    spec.given([degraded, changed('ok', null, LATER)]).when(report('ok', null, LATER)).then([]);
  });

  it('keeps the last recorded health in the state beside maintenance and claims', () => {
    const disabled: DeviceEvent = { type: 'inventory.DeviceDisabled', data: { deviceUuid: DEVICE, reason: 'fan' } };
    expect(spec.given([disabled, changed('failed', 'Xid 79')]).state).toEqual({
      status: 'maintaining',
      reason: 'fan',
      claims: {},
      health: { health: 'failed', reason: 'Xid 79', observedAt: AT },
    });
  });

  it('refuses an unknown level, an overlong reason or a malformed uuid', () => {
    spec.given([]).when(report('sick' as never)).thenThrows('INVENTORY.COMMAND_INVALID', { path: 'health' });
    spec.given([]).when(report('degraded', 'x'.repeat(256))).thenThrows('INVENTORY.COMMAND_INVALID', { path: 'reason' });
    spec.given([]).when({ ...report('failed'), deviceUuid: 'gpu-0' }).thenThrows('INVENTORY.COMMAND_INVALID', { path: 'deviceUuid' });
  });
});
