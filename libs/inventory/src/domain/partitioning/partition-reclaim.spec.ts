import { deciderSpec } from '@ledger/eventstore/testing';
import { deviceDecider } from '../device.decider';
import type { AttachHandleClaim, DeviceEvent, PartitionIdle } from '../inventory.events';

const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
const ARQ = '6f9f4c1e-2b3a-4d5e-8f60-718293a4b5c1';
const ARQ_2 = '6f9f4c1e-2b3a-4d5e-8f60-718293a4b5c2';
const DEPLOYABLE = '2a0b6c55-0d7e-5a43-9f10-1b2c3d4e5f60';
const HANDLE_UUID = '3c1d7e66-1e8f-5b54-8a21-2c3d4e5f6a70';
const BIND = '01900000-0000-7000-8000-000000000001';
const RECLAIM = '01900000-0000-7000-8000-0000000000cc';
const AT = '2026-03-01T10:00:00.000Z';
const spec = deciderSpec(deviceDecider);

const partition = { handle: 'MIG-a', hostname: 'compute-1', pciAddress: '0000:3b:00.0' };
const requestedBy = { user: 'ledger', project: 'p1', workflow: `workflow-bind-${BIND}` };
const carved = (bindId: string | null): DeviceEvent => ({
  type: 'inventory.PartitionCarved',
  data: { deviceUuid: DEVICE, hostname: 'compute-1', jobId: '01900000-0000-7000-8000-0000000000aa', requestedBy, profile: '1g.10gb', start: 0, slices: 1, handle: 'MIG-a', gpuInstanceId: 9, computeInstanceId: 0, bindId, carvedAt: AT },
});
const claim = (arqUuid = ARQ, named = true): AttachHandleClaim => ({
  deviceUuid: DEVICE,
  deployableUuid: DEPLOYABLE,
  handleUuid: HANDLE_UUID,
  arqUuid,
  bindId: BIND,
  ...(named ? { partition } : {}),
});
const claimed = (arqUuid = ARQ, named = true): DeviceEvent => ({ type: 'inventory.AttachHandleClaimed', data: claim(arqUuid, named) });
const released = (arqUuid = ARQ, named = true): DeviceEvent => ({ type: 'inventory.AttachHandleReleased', data: claim(arqUuid, named) });
const idle = (idleCount = 1, afterClean = false, idleMs = 60_000): PartitionIdle => ({
  type: 'inventory.PartitionIdle',
  data: { deviceUuid: DEVICE, ...partition, handleUuid: HANDLE_UUID, idleCount, idleMs, afterClean },
});
const release = (reclaimAfterMs?: number, clean = false) => ({ type: 'ReleaseAttachHandle' as const, deviceUuid: DEVICE, arqUuid: ARQ, clean, ...(reclaimAfterMs === undefined ? {} : { reclaimAfterMs }) });
const claimReclaim = (idleCount = 1) => ({ type: 'ClaimReclaim' as const, deviceUuid: DEVICE, handleUuid: HANDLE_UUID, reclaimId: RECLAIM, idleCount, at: AT });
const reclaimClaimed: DeviceEvent = {
  type: 'inventory.PartitionReclaimClaimed',
  data: { deviceUuid: DEVICE, handle: 'MIG-a', handleUuid: HANDLE_UUID, reclaimId: RECLAIM, idleCount: 1, claimedAt: AT },
};
const destroyed: DeviceEvent = {
  type: 'inventory.PartitionDestroyed',
  data: { deviceUuid: DEVICE, hostname: 'compute-1', jobId: '01900000-0000-7000-8000-0000000000bb', requestedBy, handle: 'MIG-a', reason: 'reclaimed', destroyedAt: AT },
};

describe('deviceDecider: reclaim of partitions carved on demand', () => {
  it('names the partition on the claim, and a release with a reclaim wait makes it idle in the same append', () => {
    spec
      .given([carved(BIND)])
      .when({ type: 'ClaimAttachHandle', deviceUuid: DEVICE, deployableUuid: DEPLOYABLE, arqUuid: ARQ, candidates: [HANDLE_UUID], bindId: BIND, partition })
      .then([claimed()]);
    spec.given([carved(BIND), claimed()]).when(release(60_000)).then([released(), idle()]);
  });

  it('keeps the partition when no wait is set, and never reclaims one no bind carved (no claim named it)', () => {
    spec.given([carved(BIND), claimed()]).when(release()).then([released()]);
    spec.given([carved(null), claimed(ARQ, false)]).when(release(60_000)).then([released(ARQ, false)]);
    // The carving bind's own undo: its next compensation destroys the partition.
    spec.given([carved(BIND), claimed()]).when({ ...release(60_000), bindId: BIND }).then([released()]);
  });

  it('makes the partition idle even when the carve’s own fact is not recorded yet: its carving bind’s claim named it', () => {
    spec.given([claimed()]).when(release(60_000)).then([released(), idle()]);
    spec.given([claimed(), released(), idle()]).when(claimReclaim()).then([reclaimClaimed]);
  });

  it('counts idle periods: a later tenant claims without naming the partition, its release starts period 2', () => {
    spec.given([carved(BIND), claimed(), released(), idle(), claimed(ARQ_2, false)]).when({ ...release(60_000), arqUuid: ARQ_2 }).then([released(ARQ_2, false), { ...idle(2) }]);
  });

  it('claims the idle handle for the reclaim once, and then no bind can take it', () => {
    const given = [carved(BIND), claimed(), released(), idle()];
    spec.given(given).when(claimReclaim()).then([reclaimClaimed]);
    spec.given([...given, reclaimClaimed]).when(claimReclaim()).then([]);
    spec
      .given([...given, reclaimClaimed])
      .when({ type: 'ClaimAttachHandle', deviceUuid: DEVICE, deployableUuid: DEPLOYABLE, arqUuid: ARQ_2, candidates: [HANDLE_UUID] })
      .thenThrows('INVENTORY.NO_FREE_ATTACH_HANDLE');
  });

  it('refuses the reclaim when a bind used the partition since its idle period began, or it is gone', () => {
    spec.given([carved(BIND), claimed(), released(), idle(), claimed(ARQ_2, false)]).when(claimReclaim()).thenThrows('INVENTORY.PARTITION_NOT_IDLE');
    spec.given([carved(BIND), claimed(), released(), idle(), claimed(ARQ_2, false), released(ARQ_2, false), idle(2)]).when(claimReclaim(1)).thenThrows('INVENTORY.PARTITION_NOT_IDLE');
    spec.given([carved(BIND), claimed(), released(), idle(), destroyed]).when(claimReclaim()).thenThrows('INVENTORY.PARTITION_NOT_IDLE');
  });

  it('gives the handle back when the destroy failed, and the partition is offered again', () => {
    const given = [carved(BIND), claimed(), released(), idle(), reclaimClaimed];
    const giveBack = { type: 'ReleaseReclaim' as const, deviceUuid: DEVICE, handleUuid: HANDLE_UUID, reclaimId: RECLAIM };
    const givenBack: DeviceEvent = { type: 'inventory.PartitionReclaimReleased', data: { deviceUuid: DEVICE, handle: 'MIG-a', handleUuid: HANDLE_UUID, reclaimId: RECLAIM } };
    spec.given(given).when(giveBack).then([givenBack]);
    spec.given([...given, givenBack]).when(giveBack).then([]);
    spec
      .given([...given, givenBack])
      .when({ type: 'ClaimAttachHandle', deviceUuid: DEVICE, deployableUuid: DEPLOYABLE, arqUuid: ARQ_2, candidates: [HANDLE_UUID], bindId: BIND })
      .then([claimed(ARQ_2, false)]);
  });

  it('starts the idle period of a cleaned partition at its DeviceCleaned, not at the release', () => {
    const cleaningStarted: DeviceEvent = { type: 'inventory.DeviceCleaningStarted', data: { deviceUuid: DEVICE, attempt: 1, handleUuids: [HANDLE_UUID], cause: 'released', arqUuids: [ARQ] } };
    const given = [carved(BIND), claimed(), released(), cleaningStarted, idle(1, true)];
    spec.given([carved(BIND), claimed()]).when(release(60_000, true)).then([released(), cleaningStarted, idle(1, true)]);
    spec.given(given).when(claimReclaim()).thenThrows('INVENTORY.PARTITION_NOT_IDLE');
    const outcome = spec.given(given).when({ type: 'RecordCleaned', deviceUuid: DEVICE, attempt: 1, jobId: '01900000-0000-7000-8000-0000000000dd', ran: [], cleanedAt: AT });
    expect(outcome.events().at(-1)).toEqual(idle(2));
  });
});
