import { ConflictError, foldEvents } from '@ledger/kernel';
import { type CarveReservation, deviceDecider, type ReportedPartitioning } from '@ledger/inventory';
import { quotaDecider } from '@ledger/quota';
import { arqDecider } from '../../../domain/arq.decider';
import type { ArqEvent } from '../../../domain/arq.events';
import { decideCarveBindRefused, decideCarveBindStart, decideCarveBindUndo } from './carve-bind-together.decision';

const ARQ = '0196b3c2-0000-7000-8000-00000000a001';
const BIND = '0196b3c2-0000-7000-8000-00000000b001';
const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
const AT = '2026-11-29T12:00:00.000Z';
const PROJECT = 'tenant-mig';
const binding = {
  hostname: 'compute-1',
  deviceRpUuid: '823f5e9e-ef5b-3461-bd09-8006cc3755d1',
  instanceUuid: '11111111-2222-4333-8444-555555555555',
  deviceUuid: DEVICE,
  deployableUuid: 'b0a7f0c4-6a3e-5c55-9d0e-1e5a0c1f2a3b',
};
const created: ArqEvent = {
  type: 'allocation.ArqCreated',
  data: {
    uuid: ARQ,
    projectId: PROJECT,
    deviceProfileUuid: '0196b3c2-0000-7000-8000-0000000000d1',
    deviceProfileName: 'mig-1g',
    groupId: 0,
    resourceClass: 'CUSTOM_MIG_1G_10GB',
    requiredTraits: [],
    forbiddenTraits: [],
    createdAt: AT,
  },
};
const start = { type: 'StartBind' as const, uuid: ARQ, bindId: BIND, ...binding, at: AT };
const arq = foldEvents(arqDecider, arqDecider.initialState(), [created]);
const capacity = { 'capacity:memoryGiB': 10 };
const limited = (limit: number) =>
  foldEvents(quotaDecider, quotaDecider.initialState(), quotaDecider.decide({ type: 'SetQuotaLimits', project: PROJECT, limits: { 'capacity:memoryGiB': limit } }, quotaDecider.initialState()));
const device = deviceDecider.initialState();
const partitioning: ReportedPartitioning = { kind: 'MIG', enabled: true, slices: 8, profiles: [{ name: '1g.10gb', profileId: 19, slices: 1, maxCount: 7 }], partitions: [] };
const reserve: CarveReservation['command'] = { type: 'ReserveCarve', deviceUuid: DEVICE, bindId: BIND, arqUuid: ARQ, profile: '1g.10gb', partitioning, at: AT };

describe('a carving bind decided together', () => {
  it('starts, charges and sets aside together, or, refused by the quota, appends nothing to any stream', () => {
    const decided = decideCarveBindStart({ start, projectId: PROJECT, capacity, reserve }, { arq, device, quota: limited(100) });
    expect([decided.arq, decided.quota, decided.device].map((events) => events.map((event) => event.type))).toEqual([
      ['allocation.ArqBindStarted'],
      ['quota.Reserved'],
      ['inventory.PartitionCarveReserved'],
    ]);
    expect(() => decideCarveBindStart({ start, projectId: PROJECT, capacity, reserve }, { arq, device, quota: limited(5) })).toThrow(expect.objectContaining({ code: 'QUOTA.EXCEEDED' }));
  });

  it('records a refusal at its start on the request alone: started, then failed with the refusal’s code', () => {
    const events = decideCarveBindRefused(start, new ConflictError('INVENTORY.NO_ROOM_TO_CARVE', 'no room'), arq);
    expect(events.map((event) => event.type)).toEqual(['allocation.ArqBindStarted', 'allocation.ArqBindFailed']);
    expect(events[1].data).toMatchObject({ code: 'INVENTORY.NO_ROOM_TO_CARVE', reason: 'no room' });
  });

  it('undoes a start that set nothing aside and charged nothing by failing the request alone, and an undo sent again appends nothing', () => {
    const started = foldEvents(arqDecider, arq, arqDecider.decide(start, arq));
    const undo = { arqUuid: ARQ, bindId: BIND, deviceUuid: DEVICE, projectId: PROJECT, failure: { code: 'DRIVER.NO_CAPACITY', reason: 'no room' }, at: AT };
    const first = decideCarveBindUndo(undo, { arq: started, device, quota: limited(100) });
    expect({ arq: first.arq.map((event) => event.type), device: first.device, quota: first.quota }).toEqual({ arq: ['allocation.ArqBindFailed'], device: [], quota: [] });
    const failed = foldEvents(arqDecider, started, first.arq);
    expect(decideCarveBindUndo(undo, { arq: failed, device, quota: limited(100) })).toEqual({ arq: [], device: [], quota: [] });
  });
});
