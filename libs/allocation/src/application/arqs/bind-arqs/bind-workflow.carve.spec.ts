import type { WorkflowInput, WorkflowOutput } from '@ledger/workflows';
import { workflowSpec } from '@ledger/workflows/testing';
import { type BindStart, bindWorkflow } from './bind-workflow';

const T0 = '2026-11-25T00:00:00.000Z';
const data: BindStart = {
  arqUuid: 'a1',
  projectId: 'p1',
  bindId: 'b1',
  binding: { hostname: 'compute-1', deviceRpUuid: 'rp1', instanceUuid: 'i1', deviceUuid: 'd1', deployableUuid: 'room1' },
  capacity: {},
  program: null,
  carve: { profile: '1g.10gb' },
};
const reserved = { kind: 'MIG', profile: '1g.10gb', profileId: 19, start: 2, slices: 1, pciAddress: '0000:3b:00.0' };
const carved = { handle: 'MIG-5c89852c-d268-c3f3-1b07-005d5ae1dc3f', profile: '1g.10gb', start: 2, slices: 1, gpuInstanceId: 3, computeInstanceId: 0 };
const handle = { uuid: 'h1', type: 'PCI', info: { domain: '0000', bus: '3b', device: '00', function: '0' } };
const migHandle = { uuid: 'h1', type: 'MIG', info: { uuid: carved.handle } };

const start: WorkflowInput = { kind: 'start', id: 'b1', at: T0, data };
const ended = (outputs: readonly WorkflowOutput[]) => outputs.find((output) => output.kind === 'complete' || output.kind === 'fail');
const accepted = (key: string, reply?: unknown): WorkflowInput => ({ kind: 'reply', id: `reply:${key}`, at: T0, key, outcome: 'accepted', reply });
const rejected = (key: string, code: string, message: string): WorkflowInput => ({ kind: 'reply', id: `reply:${key}`, at: T0, key, outcome: 'rejected', error: { code, message } });
const jobResult = (key: string, type: 'jobs.JobCompleted' | 'jobs.JobFailed', result: Record<string, unknown>): WorkflowInput => ({
  kind: 'event',
  id: `result:${key}`,
  at: T0,
  type,
  stream: `job-${key}`,
  data: { jobId: `job:${key}`, origin: { workflow: 'bind', workflowId: 'b1', key }, ...result },
});
const sent = (outputs: readonly WorkflowOutput[]): Record<string, unknown>[] =>
  outputs.flatMap((output): Record<string, unknown>[] =>
    output.kind === 'command' ? [{ key: output.key, type: output.command.type, data: output.command.data }] : output.kind === 'job' ? [{ key: output.key, kind: output.job.kind, params: output.job.params }] : [],
  );

describe('the bind workflow, carving a partition on demand', () => {
  const spec = workflowSpec(bindWorkflow);
  const upToCarve = [start, accepted('start-bind/do/1'), accepted('reserve-slices/do/1', reserved)];

  it('sets aside slices, has the agent carve them, claims the new partition and marks the request bound', () => {
    expect(sent(spec.given([start]).when(accepted('start-bind/do/1')).outputs)).toEqual([
      { key: 'reserve-slices/do/1', type: 'inventory.ReserveCarve', data: { hostname: 'compute-1', deviceUuid: 'd1', deployableUuid: 'room1', bindId: 'b1', arqUuid: 'a1' } },
    ]);
    expect(sent(spec.given(upToCarve.slice(0, -1)).when(upToCarve.at(-1)!).outputs)).toEqual([
      { key: 'carve-partition/do/1', kind: 'carve', params: { deviceUuid: 'd1', pciAddress: '0000:3b:00.0', profile: '1g.10gb', profileId: 19, start: 2, bindId: 'b1' } },
    ]);
    const claim = spec.given(upToCarve).when(jobResult('carve-partition/do/1', 'jobs.JobCompleted', { evidence: carved }));
    expect(sent(claim.outputs)).toEqual([
      {
        key: 'claim-handle/do/1',
        type: 'inventory.ClaimCarvedPartition',
        data: { hostname: 'compute-1', deviceUuid: 'd1', arqUuid: 'a1', bindId: 'b1', projectId: 'p1', reserved, carved },
      },
    ]);
    const bound = spec
      .given([...upToCarve, jobResult('carve-partition/do/1', 'jobs.JobCompleted', { evidence: carved })])
      .when(accepted('claim-handle/do/1', { attachHandle: handle }));
    expect(sent(bound.outputs)).toEqual([{ key: 'mark-bound/do/1', type: 'allocation.CompleteBind', data: { uuid: 'a1', bindId: 'b1', attachHandle: handle } }]);
  });

  it('destroys what it carved and gives the slices back when the claim fails, ending BindFailed', () => {
    const given = [...upToCarve, jobResult('carve-partition/do/1', 'jobs.JobCompleted', { evidence: carved })];
    const undo = spec.given(given).when(rejected('claim-handle/do/1', 'INVENTORY.DEVICE_IN_MAINTENANCE', 'device d1 is in maintenance'));
    expect(sent(undo.outputs)).toEqual([
      { key: 'carve-partition/compensate/1', kind: 'destroy', params: { deviceUuid: 'd1', pciAddress: '0000:3b:00.0', handle: carved.handle, reason: 'compensation' } },
    ]);
    const destroyed = [...given, rejected('claim-handle/do/1', 'INVENTORY.DEVICE_IN_MAINTENANCE', 'x'), jobResult('carve-partition/compensate/1', 'jobs.JobCompleted', { evidence: { changed: true } })];
    expect(sent(spec.given(destroyed.slice(0, -1)).when(destroyed.at(-1)!).outputs)).toEqual([
      { key: 'reserve-slices/compensate/1', type: 'inventory.ReleaseCarve', data: { deviceUuid: 'd1', bindId: 'b1' } },
    ]);
  });

  it('gives the slices back without a destroy when the carve itself fails', () => {
    const failed = spec.given(upToCarve).when(jobResult('carve-partition/do/1', 'jobs.JobFailed', { code: 'DRIVER.NO_CAPACITY', reason: 'no room' }));
    expect(sent(failed.outputs)).toEqual([{ key: 'reserve-slices/compensate/1', type: 'inventory.ReleaseCarve', data: { deviceUuid: 'd1', bindId: 'b1' } }]);
  });

  it('ends BindFailed with the device’s refusal when no room is left to carve', () => {
    const refused = spec.given([start, accepted('start-bind/do/1')]).when(rejected('reserve-slices/do/1', 'INVENTORY.NO_ROOM_TO_CARVE', 'no room'));
    expect(sent(refused.outputs)).toEqual([
      { key: 'start-bind/compensate/1', type: 'allocation.FailBind', data: { uuid: 'a1', bindId: 'b1', code: 'INVENTORY.NO_ROOM_TO_CARVE', reason: 'no room' } },
    ]);
  });
});

describe('the bind workflow, carving with its steps decided together', () => {
  const spec = workflowSpec(bindWorkflow);
  const together: BindStart = { ...data, capacity: { GPU_MEMORY_MB: 10240 }, decidedTogether: true };
  const { binding } = together;
  const start: WorkflowInput = { kind: 'start', id: 'b1', at: T0, data: together };
  const carving = [start, accepted('start-bind/do/1', reserved)];
  const carvedOk = jobResult('carve-partition/do/1', 'jobs.JobCompleted', { evidence: carved });
  const claim = { hostname: 'compute-1', deviceUuid: 'd1', arqUuid: 'a1', bindId: 'b1', projectId: 'p1', reserved, carved };

  it('starts, charges and sets aside in one command, has the agent carve, then claims and marks bound in one command', () => {
    expect(sent(spec.given([]).when(start).outputs)).toEqual([
      { key: 'start-bind/do/1', type: 'allocation.StartCarveBind', data: { uuid: 'a1', bindId: 'b1', binding, projectId: 'p1', capacity: together.capacity } },
    ]);
    expect(sent(spec.given([start]).when(carving[1]).outputs)).toEqual([
      { key: 'carve-partition/do/1', kind: 'carve', params: { deviceUuid: 'd1', pciAddress: '0000:3b:00.0', profile: '1g.10gb', profileId: 19, start: 2, bindId: 'b1' } },
    ]);
    expect(sent(spec.given(carving).when(carvedOk).outputs)).toEqual([{ key: 'claim-handle/do/1', type: 'allocation.ClaimCarvedAndBind', data: claim }]);
    const bound = spec.given([...carving, carvedOk]).when(accepted('claim-handle/do/1', { attachHandle: migHandle }));
    expect(sent(bound.outputs)).toEqual([]);
    expect(ended(bound.outputs)).toMatchObject({ kind: 'complete', outcome: 'completed' });
  });

  it('undoes the start in one command when the carve fails: slices, capacity and the request, with the carve’s failure', () => {
    const failed = spec.given(carving).when(jobResult('carve-partition/do/1', 'jobs.JobFailed', { code: 'DRIVER.NO_CAPACITY', reason: 'no room' }));
    expect(sent(failed.outputs)).toEqual([
      {
        key: 'start-bind/compensate/1',
        type: 'allocation.UndoCarveBindStart',
        data: { arqUuid: 'a1', bindId: 'b1', deviceUuid: 'd1', projectId: 'p1', failure: { code: 'DRIVER.NO_CAPACITY', reason: 'no room' } },
      },
    ]);
  });

  it('destroys what it carved, then undoes the start, when the claim is refused', () => {
    const refused = rejected('claim-handle/do/1', 'INVENTORY.DEVICE_IN_MAINTENANCE', 'device d1 is in maintenance');
    expect(sent(spec.given([...carving, carvedOk]).when(refused).outputs)).toEqual([
      { key: 'carve-partition/compensate/1', kind: 'destroy', params: { deviceUuid: 'd1', pciAddress: '0000:3b:00.0', handle: carved.handle, reason: 'compensation' } },
    ]);
    const destroyed = jobResult('carve-partition/compensate/1', 'jobs.JobCompleted', { evidence: { changed: true } });
    expect(sent(spec.given([...carving, carvedOk, refused]).when(destroyed).outputs)).toEqual([
      {
        key: 'start-bind/compensate/1',
        type: 'allocation.UndoCarveBindStart',
        data: { arqUuid: 'a1', bindId: 'b1', deviceUuid: 'd1', projectId: 'p1', failure: { code: 'INVENTORY.DEVICE_IN_MAINTENANCE', reason: 'device d1 is in maintenance' } },
      },
    ]);
  });

  it('ends with nothing to undo when the start is refused (the start recorded the refusal on the request)', () => {
    const attempts = [1, 2, 3].map((attempt) => rejected(`start-bind/do/${attempt}`, 'INVENTORY.NO_ROOM_TO_CARVE', 'no room'));
    const last = spec.given([start, ...attempts.slice(0, -1)]).when(attempts.at(-1)!);
    expect(sent(last.outputs)).toEqual([]);
    expect(ended(last.outputs)).toMatchObject({ kind: 'complete', outcome: 'compensated', failure: { code: 'INVENTORY.NO_ROOM_TO_CARVE' } });
  });

  it('runs the steps one by one for a bind that also programs: it is bound only after its program steps', () => {
    const program = { bitstreamId: 'bs1', sha256: 'a'.repeat(64), url: '/api/v1/bitstreams/bs1/content', functionId: 'f1', pciAddress: '0000:3b:00.0', expectedFunctionId: null, previous: null };
    const programming: BindStart = { ...together, program };
    expect(sent(spec.given([]).when({ ...start, data: programming }).outputs)).toEqual([
      { key: 'start-bind/do/1', type: 'allocation.StartBind', data: { uuid: 'a1', bindId: 'b1', binding } },
    ]);
  });
});
