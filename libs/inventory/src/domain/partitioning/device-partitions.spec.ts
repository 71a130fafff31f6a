import { deciderSpec } from '@ledger/eventstore/testing';
import { deviceDecider } from '../device.decider';
import type { DeviceEvent, PartitionCarved } from '../inventory.events';
import { a100Mig, migDevice } from '../testing/host-report.fixtures';
import type { ReserveCarve } from './device-partitions';

const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
const ARQ = '6f9f4c1e-2b3a-4d5e-8f60-718293a4b5c1';
const BIND_1 = '01900000-0000-7000-8000-000000000001';
const BIND_2 = '01900000-0000-7000-8000-000000000002';
const JOB = '01900000-0000-7000-8000-0000000000aa';
const AT = '2026-03-01T10:00:00.000Z';
const spec = deciderSpec(deviceDecider);

const reserve = (bindId: string, profile = '3g.40gb', partitions = a100Mig().partitioning!.partitions): ReserveCarve => ({
  type: 'ReserveCarve',
  deviceUuid: DEVICE,
  bindId,
  arqUuid: ARQ,
  profile,
  partitioning: { ...a100Mig().partitioning!, partitions },
  at: AT,
});
const reserved = (bindId: string, start: number, profile = '3g.40gb', slices = 4): DeviceEvent => ({
  type: 'inventory.PartitionCarveReserved',
  data: { deviceUuid: DEVICE, bindId, arqUuid: ARQ, profile, start, slices, reservedAt: AT },
});
const requestedBy = { user: 'ledger', project: 'p1', workflow: `workflow-bind-${BIND_1}` };
const carved = (bindId: string | null, start: number, handle = 'MIG-a'): DeviceEvent => ({
  type: 'inventory.PartitionCarved',
  data: { deviceUuid: DEVICE, hostname: 'compute-1', jobId: JOB, requestedBy, profile: '3g.40gb', start, slices: 4, handle, gpuInstanceId: 1, computeInstanceId: 0, bindId, carvedAt: AT },
});

describe('deviceDecider: partitions carved on demand', () => {
  it('sets aside the lowest free span for a bind, and another bind gets the next', () => {
    spec.given([]).when(reserve(BIND_1)).then([reserved(BIND_1, 0)]);
    spec.given([reserved(BIND_1, 0)]).when(reserve(BIND_2)).then([reserved(BIND_2, 4)]);
  });

  it('is idempotent per bind, and counts what the report shows carved', () => {
    spec.given([reserved(BIND_1, 0)]).when(reserve(BIND_1)).then([]);
    spec.given([]).when(reserve(BIND_1, '3g.40gb', [migDevice('3g.40gb', 0, 4)])).then([reserved(BIND_1, 4)]);
  });

  it('refuses with INVENTORY.NO_ROOM_TO_CARVE when nothing fits, and where a claim would be refused', () => {
    spec.given([reserved(BIND_1, 0), reserved(BIND_2, 4)]).when(reserve('01900000-0000-7000-8000-000000000003')).thenThrows('INVENTORY.NO_ROOM_TO_CARVE', { deviceUuid: DEVICE, profile: '3g.40gb' });
    spec.given([{ type: 'inventory.DeviceDisabled', data: { deviceUuid: DEVICE, reason: null } }]).when(reserve(BIND_1)).thenThrows('INVENTORY.DEVICE_IN_MAINTENANCE');
  });

  it('ends the reservation with the carve, and gives back one that was never carved', () => {
    spec.given([reserved(BIND_1, 0), carved(BIND_1, 0)]).when({ type: 'ReleaseCarve', deviceUuid: DEVICE, bindId: BIND_1 }).then([]);
    spec
      .given([reserved(BIND_1, 0)])
      .when({ type: 'ReleaseCarve', deviceUuid: DEVICE, bindId: BIND_1 })
      .then([{ type: 'inventory.PartitionCarveReleased', data: { deviceUuid: DEVICE, bindId: BIND_1, profile: '3g.40gb', start: 0, slices: 4 } }]);
  });

  it('records a carve and a destroy once per job; a carved span stays taken until destroyed', () => {
    spec.given([carved(BIND_1, 0)]).when({ type: 'RecordPartitionCarved', ...(carved(BIND_1, 0).data as PartitionCarved['data']) }).then([]);
    spec.given([carved(null, 0)]).when(reserve(BIND_2)).then([reserved(BIND_2, 4)]);
    const destroyed: DeviceEvent = {
      type: 'inventory.PartitionDestroyed',
      data: { deviceUuid: DEVICE, hostname: 'compute-1', jobId: '01900000-0000-7000-8000-0000000000bb', requestedBy, handle: 'MIG-a', reason: 'reclaimed', destroyedAt: AT },
    };
    spec.given([carved(null, 0), destroyed]).when(reserve(BIND_2)).then([reserved(BIND_2, 0)]);
  });
});
