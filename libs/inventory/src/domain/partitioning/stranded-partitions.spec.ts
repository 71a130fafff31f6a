import { deviceDecider, type DeviceState } from '../device.decider';
import type { AttachHandleClaim, DeviceEvent } from '../inventory.events';
import { a100Mig, migDevice } from '../testing/host-report.fixtures';
import { carvedPartitionIdentity } from './partition-deployables';
import { type PartitionFacts, strandedPartitions } from './stranded-partitions';

const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
const ARQ = '6f9f4c1e-2b3a-4d5e-8f60-718293a4b5c1';
const BIND = '01900000-0000-7000-8000-000000000001';
const PCI = '0000:3b:00.0';
const AT = '2026-03-01T10:00:00.000Z';
const requestedBy = { user: 'ledger', project: 'p1', workflow: null };

const stateOf = (events: readonly DeviceEvent[]): DeviceState => events.reduce(deviceDecider.evolve, deviceDecider.initialState());
const carved: DeviceEvent = {
  type: 'inventory.PartitionCarved',
  data: { deviceUuid: DEVICE, hostname: 'compute-1', jobId: '01900000-0000-7000-8000-0000000000aa', requestedBy, profile: '1g.10gb', start: 0, slices: 1, handle: 'MIG-a', gpuInstanceId: 1, computeInstanceId: 0, bindId: BIND, carvedAt: AT },
};
const claimOfCarved = (arqUuid: string): DeviceEvent => {
  const { deployableUuid, handleUuid } = carvedPartitionIdentity('compute-1', DEVICE, PCI, 'MIG', migDevice('1g.10gb', 0, 1, 'MIG-a'));
  return { type: 'inventory.AttachHandleClaimed', data: { deviceUuid: DEVICE, deployableUuid, handleUuid, arqUuid, bindId: BIND } };
};
const facts = (events: readonly DeviceEvent[], partitions = [migDevice('1g.10gb', 0, 1, 'MIG-a')], liveArqs: string[] = [ARQ]): PartitionFacts => ({
  hostname: 'compute-1',
  deviceUuid: DEVICE,
  pciAddress: PCI,
  partitioning: a100Mig(partitions).partitioning!,
  device: stateOf(events),
  liveArqs: new Set(liveArqs),
});

describe('strandedPartitions', () => {
  it('finds nothing when each partition is reported and held by a live request or free', () => {
    expect(strandedPartitions(facts([carved, claimOfCarved(ARQ)]))).toEqual([]);
    expect(strandedPartitions(facts([carved]))).toEqual([]);
  });

  it('names a partition held by a request that ended, one carved but not reported, and slices set aside by an ended bind', () => {
    expect(strandedPartitions(facts([carved, claimOfCarved(ARQ)], undefined, []))).toEqual([{ problem: 'held-by-ended-request', handle: 'MIG-a', arqUuid: ARQ }]);
    expect(strandedPartitions(facts([carved], []))).toEqual([{ problem: 'carved-not-reported', handle: 'MIG-a' }]);
    const reserved: DeviceEvent = { type: 'inventory.PartitionCarveReserved', data: { deviceUuid: DEVICE, bindId: BIND, arqUuid: ARQ, profile: '7g.80gb', start: 0, slices: 8, reservedAt: AT } };
    expect(strandedPartitions(facts([reserved], [], []))).toEqual([{ problem: 'reserved-by-ended-bind', bindId: BIND, arqUuid: ARQ }]);
  });

  it('names a handle held for a reclaim that no longer runs: a crash between the claim and the destroy must end destroyed or free again', () => {
    const { handleUuid } = carvedPartitionIdentity('compute-1', DEVICE, PCI, 'MIG', migDevice('1g.10gb', 0, 1, 'MIG-a'));
    const named: AttachHandleClaim = { ...(claimOfCarved(ARQ).data as AttachHandleClaim), partition: { handle: 'MIG-a', hostname: 'compute-1', pciAddress: PCI } };
    const RECLAIM = '01900000-0000-7000-8000-0000000000cc';
    const events: DeviceEvent[] = [
      carved,
      { type: 'inventory.AttachHandleClaimed', data: named },
      { type: 'inventory.AttachHandleReleased', data: named },
      { type: 'inventory.PartitionIdle', data: { deviceUuid: DEVICE, handle: 'MIG-a', hostname: 'compute-1', pciAddress: PCI, handleUuid, idleCount: 1, idleMs: 0, afterClean: false } },
      { type: 'inventory.PartitionReclaimClaimed', data: { deviceUuid: DEVICE, handle: 'MIG-a', handleUuid, reclaimId: RECLAIM, idleCount: 1, claimedAt: AT } },
    ];
    expect(strandedPartitions(facts(events))).toEqual([{ problem: 'held-by-ended-reclaim', handle: 'MIG-a', reclaimId: RECLAIM }]);
    expect(strandedPartitions({ ...facts(events), liveReclaims: new Set([RECLAIM]) })).toEqual([]);
  });

  it('finds slices set aside over a reported partition, and more than the parent has', () => {
    const reserved: DeviceEvent = { type: 'inventory.PartitionCarveReserved', data: { deviceUuid: DEVICE, bindId: BIND, arqUuid: ARQ, profile: '7g.80gb', start: 0, slices: 8, reservedAt: AT } };
    expect(strandedPartitions(facts([carved, reserved])).map((problem) => problem.problem)).toEqual(['overlap', 'beyond-capacity']);
  });
});
