import { deciderSpec } from '@ledger/eventstore/testing';
import { deviceDecider, type FenceDevice } from './device.decider';
import type { AttachHandleClaim, DeviceEvent } from './inventory.events';

const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
const DEPLOYABLE = '0b4e6d1c-4f0a-5c6e-9a43-5e2b1d7f0a01';
const ARQ_1 = '6f9f4c1e-2b3a-4d5e-8f60-718293a4b5c1';
const ARQ_2 = '6f9f4c1e-2b3a-4d5e-8f60-718293a4b5c2';
const HANDLES = ['1a2b3c4d-0000-5000-8000-000000000001', '1a2b3c4d-0000-5000-8000-000000000002'];
const FENCED_AT = '2026-03-01T10:00:00.000Z';
const spec = deciderSpec(deviceDecider);

const claim = (arqUuid: string, handleUuid: string): AttachHandleClaim => ({ deviceUuid: DEVICE, deployableUuid: DEPLOYABLE, handleUuid, arqUuid });
const claimed = (arqUuid: string, handleUuid: string): DeviceEvent => ({ type: 'inventory.AttachHandleClaimed', data: claim(arqUuid, handleUuid) });
const fence: FenceDevice = { type: 'FenceDevice', deviceUuid: DEVICE, hostname: 'compute-1', reason: 'PSU dead', fencedAt: FENCED_AT };
const fenced: DeviceEvent = { type: 'inventory.DeviceFenced', data: { deviceUuid: DEVICE, hostname: 'compute-1', reason: 'PSU dead', fencedAt: FENCED_AT } };
const unfenced: DeviceEvent = { type: 'inventory.DeviceUnfenced', data: { deviceUuid: DEVICE, hostname: 'compute-1' } };
const claimCommand = (arqUuid: string) => ({ type: 'ClaimAttachHandle', deviceUuid: DEVICE, deployableUuid: DEPLOYABLE, arqUuid, candidates: HANDLES }) as const;

describe('deviceDecider: fencing', () => {
  it('fences the device and releases every hold on it with the fence’s reason, in one decision', () => {
    spec
      .given([claimed(ARQ_1, HANDLES[0]), claimed(ARQ_2, HANDLES[1])])
      .when(fence)
      .then([
        fenced,
        { type: 'inventory.AttachHandleReleased', data: { ...claim(ARQ_1, HANDLES[0]), reason: 'PSU dead' } },
        { type: 'inventory.AttachHandleReleased', data: { ...claim(ARQ_2, HANDLES[1]), reason: 'PSU dead' } },
      ]);
  });

  it('appends nothing when a fenced device is fenced again', () => {
    spec.given([fenced]).when({ ...fence, reason: 'again' }).then([]);
  });

  it('refuses a claim on a fenced device with INVENTORY.HOST_FENCED, and takes it again once unfenced', () => {
    spec.given([fenced]).when(claimCommand(ARQ_1)).thenThrows('INVENTORY.HOST_FENCED', { hostname: 'compute-1', deviceUuid: DEVICE });
    spec.given([fenced, unfenced]).when(claimCommand(ARQ_1)).then([claimed(ARQ_1, HANDLES[0])]);
  });

  it('unfences a fenced device, and appends nothing for one that is not fenced', () => {
    spec.given([fenced]).when({ type: 'UnfenceDevice', deviceUuid: DEVICE, hostname: 'compute-1' }).then([unfenced]);
    spec.given([]).when({ type: 'UnfenceDevice', deviceUuid: DEVICE, hostname: 'compute-1' }).then([]);
  });
});
