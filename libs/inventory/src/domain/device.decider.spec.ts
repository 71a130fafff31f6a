import { deciderSpec } from '@ledger/eventstore/testing';
import { deviceDecider } from './device.decider';
import type { DeviceEvent } from './inventory.events';

const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
const spec = deciderSpec(deviceDecider);
const disabled: DeviceEvent = { type: 'inventory.DeviceDisabled', data: { deviceUuid: DEVICE, reason: 'fan failure' } };
const enabled: DeviceEvent = { type: 'inventory.DeviceEnabled', data: { deviceUuid: DEVICE } };

describe('deviceDecider', () => {
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

  it('ignores events it does not own', () => {
    const other = { type: 'inventory.DeviceDiscovered', data: {} } as unknown as DeviceEvent;
    expect(spec.given([disabled, other]).state).toEqual({ status: 'maintaining', reason: 'fan failure', claims: {} });
  });

  it('refuses a malformed uuid or an overlong reason', () => {
    spec.given([]).when({ type: 'DisableDevice', deviceUuid: 'gpu-1', reason: null }).thenThrows('INVENTORY.COMMAND_INVALID', { path: 'deviceUuid' });
    spec
      .given([])
      .when({ type: 'DisableDevice', deviceUuid: DEVICE, reason: 'x'.repeat(256) })
      .thenThrows('INVENTORY.COMMAND_INVALID', { path: 'reason' });
  });

  describe('attach handle claims', () => {
    const DEPLOYABLE = 'b0a7f0c4-6a3e-5c55-9d0e-1e5a0c1f2a3b';
    const H1 = '0a000000-0000-5000-8000-000000000001';
    const H2 = '0a000000-0000-5000-8000-000000000002';
    const ARQ_A = '01900000-0000-7000-8000-00000000000a';
    const ARQ_B = '01900000-0000-7000-8000-00000000000b';
    const claim = (arqUuid: string, candidates = [H1, H2]) =>
      ({ type: 'ClaimAttachHandle', deviceUuid: DEVICE, deployableUuid: DEPLOYABLE, arqUuid, candidates }) as const;
    const claimed = (handleUuid: string, arqUuid: string): DeviceEvent => ({
      type: 'inventory.AttachHandleClaimed',
      data: { deviceUuid: DEVICE, deployableUuid: DEPLOYABLE, handleUuid, arqUuid },
    });
    const released = (handleUuid: string, arqUuid: string): DeviceEvent => ({
      type: 'inventory.AttachHandleReleased',
      data: { deviceUuid: DEVICE, deployableUuid: DEPLOYABLE, handleUuid, arqUuid },
    });

    it('claims the first free candidate', () => {
      spec.given([]).when(claim(ARQ_A)).then([claimed(H1, ARQ_A)]);
      spec.given([claimed(H1, ARQ_A)]).when(claim(ARQ_B)).then([claimed(H2, ARQ_B)]);
    });

    it('claims nothing again for a request that already holds a handle', () => {
      spec.given([claimed(H1, ARQ_A)]).when(claim(ARQ_A)).then([]);
    });

    it('refuses when every candidate is taken, or the device is in maintenance', () => {
      spec.given([claimed(H1, ARQ_A), claimed(H2, ARQ_B)]).when(claim('01900000-0000-7000-8000-00000000000c')).thenThrows('INVENTORY.NO_FREE_ATTACH_HANDLE');
      spec.given([disabled]).when(claim(ARQ_A)).thenThrows('INVENTORY.DEVICE_IN_MAINTENANCE');
    });

    it('refuses a device whose recorded health is failed, and claims again once it recovers; degraded still works', () => {
      const health = (level: 'ok' | 'degraded' | 'failed'): DeviceEvent => ({
        type: 'inventory.DeviceHealthChanged',
        // Schema 1's data (no judgment): read as the ledger judged it then, failed reserved and degraded watched.
        data: { deviceUuid: DEVICE, health: level, reason: level === 'ok' ? null : 'Xid 79', observedAt: '2026-03-01T00:00:00.000Z' } as never,
      });
      spec.given([health('failed')]).when(claim(ARQ_A)).thenThrows('INVENTORY.DEVICE_UNHEALTHY');
      spec.given([health('failed'), health('ok')]).when(claim(ARQ_A)).then([claimed(H1, ARQ_A)]);
      spec.given([health('degraded')]).when(claim(ARQ_A)).then([claimed(H1, ARQ_A)]);
      // A request that already holds a handle keeps it: the refusal is for new claims, a repeat changes nothing.
      spec.given([claimed(H1, ARQ_A), health('failed')]).when(claim(ARQ_A)).then([]);
    });

    it('releases what the request holds, and nothing otherwise; the handle is free again', () => {
      spec.given([claimed(H1, ARQ_A), claimed(H2, ARQ_B)]).when({ type: 'ReleaseAttachHandle', deviceUuid: DEVICE, arqUuid: ARQ_A }).then([released(H1, ARQ_A)]);
      spec.given([claimed(H1, ARQ_A), released(H1, ARQ_A)]).when({ type: 'ReleaseAttachHandle', deviceUuid: DEVICE, arqUuid: ARQ_A }).then([]);
      spec.given([claimed(H1, ARQ_A), released(H1, ARQ_A)]).when(claim(ARQ_B)).then([claimed(H1, ARQ_B)]);
    });
  });
});
