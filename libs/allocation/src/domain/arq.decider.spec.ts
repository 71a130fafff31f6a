import { deciderSpec } from '@ledger/eventstore/testing';
import { type ArqCommand, arqDecider } from './arq.decider';
import type { ArqEvent, BoundAttachHandle } from './arq.events';

const ARQ = '0196b3c2-0000-7000-8000-00000000a001';
const AT = '2026-03-01T10:00:00.000Z';
const spec = deciderSpec(arqDecider);

const created: ArqEvent = {
  type: 'allocation.ArqCreated',
  data: {
    uuid: ARQ,
    projectId: 'tenant-a',
    deviceProfileUuid: '0196b3c2-0000-7000-8000-0000000000d1',
    deviceProfileName: 'fpga-dp',
    groupId: 0,
    resourceClass: 'FPGA',
    requiredTraits: ['CUSTOM_FPGA_INTEL'],
    forbiddenTraits: [],
    createdAt: AT,
  },
};
const binding = {
  hostname: 'compute-1',
  deviceRpUuid: '823f5e9e-ef5b-3461-bd09-8006cc3755d1',
  instanceUuid: '11111111-2222-4333-8444-555555555555',
  deviceUuid: '17107e20-ed18-50ad-92a6-e82078f0e0f2',
  deployableUuid: 'b0a7f0c4-6a3e-5c55-9d0e-1e5a0c1f2a3b',
};
const handle: BoundAttachHandle = { uuid: '0a000000-0000-5000-8000-000000000001', type: 'PCI', info: { domain: '0000', bus: '5e', device: '00', function: '1' } };
const started: ArqEvent = { type: 'allocation.ArqBindStarted', data: { uuid: ARQ, ...binding, startedAt: AT } };
const bound: ArqEvent = { type: 'allocation.ArqBound', data: { uuid: ARQ, attachHandle: handle, boundAt: AT } };
const failed: ArqEvent = { type: 'allocation.ArqBindFailed', data: { uuid: ARQ, code: 'X', reason: 'no handle', failedAt: AT } };
const unbound: ArqEvent = { type: 'allocation.ArqUnbound', data: { uuid: ARQ, unboundAt: AT } };
const deleted: ArqEvent = { type: 'allocation.ArqDeleted', data: { uuid: ARQ, projectId: 'tenant-a', deletedAt: AT } };

const startBind = (overrides: Partial<typeof binding> = {}): ArqCommand => ({ type: 'StartBind', uuid: ARQ, ...binding, ...overrides, at: AT });
const complete: ArqCommand = { type: 'CompleteBind', uuid: ARQ, attachHandle: handle, at: AT };
const fail: ArqCommand = { type: 'FailBind', uuid: ARQ, code: 'X', reason: 'no handle', at: AT };
const unbind: ArqCommand = { type: 'UnbindArq', uuid: ARQ, at: AT };
const remove = (mayDeleteBound: boolean): ArqCommand => ({ type: 'DeleteArq', uuid: ARQ, mayDeleteBound, at: AT });

describe('arqDecider', () => {
  it('creates once; a repeated create changes nothing, a create after delete is refused', () => {
    const { type: _type, createdAt, ...data } = { type: 0, ...created.data };
    const create: ArqCommand = { type: 'CreateArq', ...data, at: createdAt };
    spec.given([]).when(create).then([created]);
    spec.given([created]).when(create).then([]);
    spec.given([created, deleted]).when(create).thenThrows('ARQ.BAD_STATE');
  });

  it('binds Initial → BindStarted → Bound, and from Unbound again', () => {
    spec.given([created]).when(startBind()).then([started]);
    spec.given([created, started]).when(complete).then([bound]);
    spec.given([created, started, bound, unbound]).when(startBind()).then([started]);
  });

  it('treats a repeated bind or completion as done, but refuses binding elsewhere without an unbind', () => {
    spec.given([created, started]).when(startBind()).then([]);
    spec.given([created, started, bound]).when(startBind()).then([]);
    spec.given([created, started, bound]).when(complete).then([]);
    spec.given([created, started, bound]).when(startBind({ instanceUuid: '11111111-2222-4333-8444-666666666666' })).thenThrows('ARQ.BAD_STATE', { state: 'Bound' });
    spec.given([created, started, failed]).when(startBind()).thenThrows('ARQ.BAD_STATE', { state: 'BindFailed' });
    spec.given([created]).when(complete).thenThrows('ARQ.BAD_STATE', { state: 'Initial' });
  });

  it('fails only a bind that is still starting', () => {
    spec.given([created, started]).when(fail).then([failed]);
    spec.given([created, started, bound]).when(fail).then([]);
    spec.given([created]).when(fail).then([]);
  });

  it('takes failing the bind of a request deleted meanwhile as done: the undo of a bind whose request Nova deleted mid-bind must not end failed', () => {
    spec.given([created, started, deleted]).when(fail).then([]);
  });

  it('unbinds what is binding, bound or failed; unbinding an unbound or initial request is a no-op', () => {
    for (const history of [[created, started], [created, started, bound], [created, started, failed]]) spec.given(history).when(unbind).then([unbound]);
    spec.given([created]).when(unbind).then([]);
    spec.given([created, started, bound, unbound]).when(unbind).then([]);
    expect(spec.given([created, started, bound, unbound]).state).toMatchObject({ state: 'Unbound', binding: null, attachHandle: null });
  });

  it('deletes from any state, a bound request only with the service role; deleting twice is a no-op', () => {
    spec.given([created]).when(remove(false)).then([deleted]);
    spec.given([created, started, bound]).when(remove(false)).thenThrows('ARQ.SERVICE_ROLE_REQUIRED');
    spec.given([created, started, bound]).when(remove(true)).then([deleted]);
    spec.given([created, deleted]).when(remove(false)).then([]);
  });

  it('knows no request that was never created or is deleted', () => {
    spec.given([]).when(startBind()).thenThrows('ARQ.NOT_FOUND');
    spec.given([created, deleted]).when(unbind).thenThrows('ARQ.NOT_FOUND');
  });

  it('keeps the binding through a failure so that its claim can be found and released', () => {
    expect(spec.given([created, started, failed]).state).toMatchObject({ state: 'BindFailed', binding, failure: { code: 'X', reason: 'no handle' } });
  });
});
