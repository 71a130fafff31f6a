import { deciderSpec } from '@ledger/eventstore/testing';
import type { RecordCleaned, RecordCleanFailed } from './device-cleaning';
import { deviceDecider } from './device.decider';
import type { AttachHandleClaim, DeviceEvent } from './inventory.events';

const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
const DEPLOYABLE = '0b4e6d1c-4f0a-5c6e-9a43-5e2b1d7f0a01';
const ARQ_1 = '6f9f4c1e-2b3a-4d5e-8f60-718293a4b5c1';
const ARQ_2 = '6f9f4c1e-2b3a-4d5e-8f60-718293a4b5c2';
const HANDLES = ['1a2b3c4d-0000-5000-8000-000000000001', '1a2b3c4d-0000-5000-8000-000000000002'];
const JOB = '9d1e2f30-4a5b-4c6d-8e7f-8091a2b3c4d5';
const AT = '2026-03-01T10:00:00.000Z';
const RAN = [{ step: 'function-level reset', result: 'ok' }];
const spec = deciderSpec(deviceDecider);

const claim = (arqUuid: string, handleUuid: string): AttachHandleClaim => ({ deviceUuid: DEVICE, deployableUuid: DEPLOYABLE, handleUuid, arqUuid });
const claimed = (arqUuid: string, handleUuid: string): DeviceEvent => ({ type: 'inventory.AttachHandleClaimed', data: claim(arqUuid, handleUuid) });
const released = (arqUuid: string, handleUuid: string): DeviceEvent => ({ type: 'inventory.AttachHandleReleased', data: claim(arqUuid, handleUuid) });
const claimCommand = (arqUuid: string, candidates = HANDLES) => ({ type: 'ClaimAttachHandle', deviceUuid: DEVICE, deployableUuid: DEPLOYABLE, arqUuid, candidates }) as const;
const release = (arqUuid: string) => ({ type: 'ReleaseAttachHandle', deviceUuid: DEVICE, arqUuid, clean: true }) as const;
const started = (attempt: number, handleUuids: string[], cause: 'released' | 'unfenced' | 'retry', arqUuids: string[] = []): DeviceEvent => ({
  type: 'inventory.DeviceCleaningStarted',
  data: { deviceUuid: DEVICE, attempt, handleUuids, cause, arqUuids },
});
const cleaned = (attempt: number, handleUuids: string[]): DeviceEvent => ({
  type: 'inventory.DeviceCleaned',
  data: { deviceUuid: DEVICE, attempt, handleUuids, jobId: JOB, ran: RAN, cleanedAt: AT },
});
const failed = (attempt: number, handleUuids: string[]): DeviceEvent => ({
  type: 'inventory.DeviceCleanFailed',
  data: { deviceUuid: DEVICE, attempt, handleUuids, jobId: JOB, ran: RAN, code: 'CLEAN.RESET_FAILED', reason: 'reset refused', failedAt: AT },
});
const recordCleaned = (attempt: number): RecordCleaned => ({ type: 'RecordCleaned', deviceUuid: DEVICE, attempt, jobId: JOB, ran: RAN, cleanedAt: AT });
const recordFailed = (attempt: number): RecordCleanFailed => ({
  type: 'RecordCleanFailed',
  deviceUuid: DEVICE,
  attempt,
  jobId: JOB,
  ran: RAN,
  code: 'CLEAN.RESET_FAILED',
  reason: 'reset refused',
  failedAt: AT,
});

describe('deviceDecider: cleaning', () => {
  it('releases the handle and starts its cleaning in one decision, naming who held it', () => {
    spec.given([claimed(ARQ_1, HANDLES[0])]).when(release(ARQ_1)).then([released(ARQ_1, HANDLES[0]), started(1, [HANDLES[0]], 'released', [ARQ_1])]);
  });

  it('releases without cleaning when the device type does not clean, and when nothing is held', () => {
    spec.given([claimed(ARQ_1, HANDLES[0])]).when({ ...release(ARQ_1), clean: false }).then([released(ARQ_1, HANDLES[0])]);
    spec.given([]).when(release(ARQ_1)).then([]);
  });

  it('refuses a claim of a handle being cleaned with INVENTORY.DEVICE_CLEANING, and takes another clean handle', () => {
    const dirty = [claimed(ARQ_1, HANDLES[0]), released(ARQ_1, HANDLES[0]), started(1, [HANDLES[0]], 'released', [ARQ_1])];
    spec.given(dirty).when(claimCommand(ARQ_2, [HANDLES[0]])).thenThrows('INVENTORY.DEVICE_CLEANING', { deviceUuid: DEVICE, cleanStatus: 'cleaning' });
    spec.given(dirty).when(claimCommand(ARQ_2)).then([claimed(ARQ_2, HANDLES[1])]);
  });

  it('offers the handle again once its clean is recorded, and records the outcome once', () => {
    const cleaning = [claimed(ARQ_1, HANDLES[0]), released(ARQ_1, HANDLES[0]), started(1, [HANDLES[0]], 'released', [ARQ_1])];
    spec.given(cleaning).when(recordCleaned(1)).then([cleaned(1, [HANDLES[0]])]);
    spec.given([...cleaning, cleaned(1, [HANDLES[0]])]).when(recordCleaned(1)).then([]);
    spec.given([...cleaning, cleaned(1, [HANDLES[0]])]).when(claimCommand(ARQ_2, [HANDLES[0]])).then([claimed(ARQ_2, HANDLES[0])]);
  });

  it('keeps a failed clean reserved (clean-failed) until an operator retries it or releases it', () => {
    const cleanFailed = [claimed(ARQ_1, HANDLES[0]), released(ARQ_1, HANDLES[0]), started(1, [HANDLES[0]], 'released', [ARQ_1]), failed(1, [HANDLES[0]])];
    spec.given(cleanFailed.slice(0, 3)).when(recordFailed(1)).then([failed(1, [HANDLES[0]])]);
    spec.given(cleanFailed).when(claimCommand(ARQ_2, [HANDLES[0]])).thenThrows('INVENTORY.DEVICE_CLEANING', { cleanStatus: 'clean-failed', cleanReason: 'reset refused' });
    spec.given(cleanFailed).when({ type: 'RetryClean', deviceUuid: DEVICE }).then([started(2, [HANDLES[0]], 'retry')]);
    spec
      .given(cleanFailed)
      .when({ type: 'ReleaseClean', deviceUuid: DEVICE, by: 'admin', reason: 'checked by hand' })
      .then([{ type: 'inventory.DeviceCleanReleased', data: { deviceUuid: DEVICE, handleUuids: [HANDLES[0]], by: 'admin', reason: 'checked by hand' } }]);
  });

  it('ignores the late outcome of an older attempt', () => {
    const retried = [claimed(ARQ_1, HANDLES[0]), released(ARQ_1, HANDLES[0]), started(1, [HANDLES[0]], 'released'), failed(1, [HANDLES[0]]), started(2, [HANDLES[0]], 'retry')];
    spec.given(retried).when(recordCleaned(1)).then([]);
    spec.given(retried).when(recordCleaned(2)).then([cleaned(2, [HANDLES[0]])]);
  });

  it('refuses retry and release when no clean failed (INVENTORY.CLEAN_NOT_FAILED)', () => {
    spec.given([]).when({ type: 'RetryClean', deviceUuid: DEVICE }).thenThrows('INVENTORY.CLEAN_NOT_FAILED');
    spec.given([]).when({ type: 'ReleaseClean', deviceUuid: DEVICE, by: 'admin', reason: null }).thenThrows('INVENTORY.CLEAN_NOT_FAILED');
  });

  it('refuses a malformed outcome with INVENTORY.COMMAND_INVALID', () => {
    spec.given([]).when({ ...recordCleaned(0) }).thenThrows('INVENTORY.COMMAND_INVALID', { path: 'attempt' });
    spec.given([]).when({ ...recordCleaned(1), ran: [{ step: '', result: 'ok' }] }).thenThrows('INVENTORY.COMMAND_INVALID', { path: 'ran[0].step' });
  });

  it('keeps what a fence released pending, and starts its cleaning at the unfence', () => {
    const fence = { type: 'FenceDevice', deviceUuid: DEVICE, hostname: 'compute-1', reason: 'PSU dead', fencedAt: AT, clean: true } as const;
    const fenced: DeviceEvent = { type: 'inventory.DeviceFenced', data: { deviceUuid: DEVICE, hostname: 'compute-1', reason: 'PSU dead', fencedAt: AT } };
    const pending: DeviceEvent = { type: 'inventory.DeviceCleanPending', data: { deviceUuid: DEVICE, handleUuids: [HANDLES[0]], reason: 'PSU dead' } };
    const fenceReleased: DeviceEvent = { type: 'inventory.AttachHandleReleased', data: { ...claim(ARQ_1, HANDLES[0]), reason: 'PSU dead' } };
    spec.given([claimed(ARQ_1, HANDLES[0])]).when(fence).then([fenced, fenceReleased, pending]);
    spec.given([claimed(ARQ_1, HANDLES[0]), fenced, fenceReleased, pending]).when({ type: 'RetryClean', deviceUuid: DEVICE }).thenThrows('INVENTORY.HOST_FENCED');
    spec
      .given([claimed(ARQ_1, HANDLES[0]), fenced, fenceReleased, pending])
      .when({ type: 'UnfenceDevice', deviceUuid: DEVICE, hostname: 'compute-1' })
      .then([{ type: 'inventory.DeviceUnfenced', data: { deviceUuid: DEVICE, hostname: 'compute-1' } }, started(1, [HANDLES[0]], 'unfenced')]);
  });
});
