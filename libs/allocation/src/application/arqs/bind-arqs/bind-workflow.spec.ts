import type { WorkflowInput, WorkflowOutput } from '@ledger/workflows';
import { workflowSpec } from '@ledger/workflows/testing';
import { type BindStart, bindWorkflow } from './bind-workflow';

const T0 = '2026-11-25T00:00:00.000Z';
const handle = { uuid: 'h1', type: 'PCI', info: { domain: '0000', bus: '3b', device: '00', function: '1' } };
const data = (overrides: Partial<BindStart> = {}): BindStart => ({
  arqUuid: 'a1',
  projectId: 'p1',
  bindId: 'b1',
  binding: { hostname: 'compute-1', deviceRpUuid: 'rp1', instanceUuid: 'i1', deviceUuid: 'd1', deployableUuid: 'dep1' },
  capacity: {},
  program: null,
  ...overrides,
});
const start = (overrides: Partial<BindStart> = {}): WorkflowInput => ({ kind: 'start', id: 'b1', at: T0, data: data(overrides) });
const accepted = (key: string, reply?: unknown): WorkflowInput => ({ kind: 'reply', id: `reply:${key}`, at: T0, key, outcome: 'accepted', reply });
const rejected = (key: string, code: string, message: string): WorkflowInput => ({ kind: 'reply', id: `reply:${key}`, at: T0, key, outcome: 'rejected', error: { code, message } });
const commands = (outputs: readonly WorkflowOutput[]) =>
  outputs.flatMap((output) => (output.kind === 'command' ? [{ key: output.key, type: output.command.type, data: output.command.data }] : []));

describe('the bind workflow', () => {
  const spec = workflowSpec(bindWorkflow);

  it('starts the bind, claims a handle and marks the request bound with it, skipping what does not apply', () => {
    expect(commands(spec.given([]).when(start()).outputs)).toEqual([
      { key: 'start-bind/do/1', type: 'allocation.StartBind', data: { uuid: 'a1', bindId: 'b1', binding: data().binding } },
    ]);
    const claimed = spec.given([start()]).when(accepted('start-bind/do/1'));
    expect(claimed.outputs).toContainEqual({ kind: 'step', step: 'charge-capacity', phase: 'do', outcome: 'skipped', attempt: 0 });
    expect(commands(claimed.outputs)).toEqual([
      { key: 'claim-handle/do/1', type: 'inventory.ClaimAttachHandle', data: { deviceUuid: 'd1', deployableUuid: 'dep1', arqUuid: 'a1', bindId: 'b1' } },
    ]);
    const bound = spec.given([start(), accepted('start-bind/do/1')]).when(accepted('claim-handle/do/1', { attachHandle: handle }));
    expect(commands(bound.outputs)).toEqual([{ key: 'mark-bound/do/1', type: 'allocation.CompleteBind', data: { uuid: 'a1', bindId: 'b1', attachHandle: handle } }]);
    const done = spec.given([start(), accepted('start-bind/do/1'), accepted('claim-handle/do/1', { attachHandle: handle })]).when(accepted('mark-bound/do/1'));
    expect(done.outputs.at(-1)).toEqual({ kind: 'complete', outcome: 'completed' });
  });

  it('charges the device capacity to the project, and gives it back when a later step fails', () => {
    const withCapacity = start({ capacity: { 'capacity:memoryGiB': 80 } });
    const charged = spec.given([withCapacity]).when(accepted('start-bind/do/1'));
    expect(commands(charged.outputs)).toEqual([
      { key: 'charge-capacity/do/1', type: 'quota.Reserve', data: { project: 'p1', consumers: [{ consumerId: 'a1:capacity', resources: { 'capacity:memoryGiB': 80 } }] } },
    ]);
    const noHandle = spec
      .given([withCapacity, accepted('start-bind/do/1'), accepted('charge-capacity/do/1')])
      .when(rejected('claim-handle/do/1', 'INVENTORY.NO_FREE_ATTACH_HANDLE', 'deployable dep1 has no free attach handle'));
    expect(commands(noHandle.outputs)).toEqual([{ key: 'charge-capacity/compensate/1', type: 'quota.Release', data: { project: 'p1', consumerIds: ['a1:capacity'] } }]);
  });

  it('ends the request BindFailed with the code and reason of the step that failed, after undoing the claim', () => {
    const given = [start(), accepted('start-bind/do/1'), accepted('claim-handle/do/1', { attachHandle: handle }), rejected('mark-bound/do/1', 'ARQ.BAD_STATE', 'gone')];
    const retried = spec.given(given.slice(0, -1)).when(given.at(-1)!);
    expect(commands(retried.outputs).map((command) => command.key)).toEqual(['mark-bound/do/2']);
    const history = [...given, rejected('mark-bound/do/2', 'ARQ.BAD_STATE', 'gone')];
    expect(commands(spec.given(history.slice(0, -1)).when(history.at(-1)!).outputs).map((command) => command.key)).toEqual(['mark-bound/do/3']);
    const third = spec.given(history).when(rejected('mark-bound/do/3', 'ARQ.BAD_STATE', 'gone'));
    expect(commands(third.outputs)).toEqual([{ key: 'claim-handle/compensate/1', type: 'inventory.ReleaseAttachHandle', data: { deviceUuid: 'd1', arqUuid: 'a1', bindId: 'b1' } }]);
    const failing = spec.given([...history, rejected('mark-bound/do/3', 'ARQ.BAD_STATE', 'gone')]).when(accepted('claim-handle/compensate/1'));
    expect(commands(failing.outputs)).toEqual([
      { key: 'start-bind/compensate/1', type: 'allocation.FailBind', data: { uuid: 'a1', bindId: 'b1', code: 'ARQ.BAD_STATE', reason: 'gone' } },
    ]);
  });

  it('programs the region and has the agent verify it before marking bound, when the profile names a bitstream', () => {
    const program = { bitstreamId: 'bs1', sha256: 'a'.repeat(64), url: 'http://ledger/api/v1/bitstreams/bs1/content', functionId: 'f1', pciAddress: '0000:3b:00.0', previous: null };
    const claimed = spec.given([start({ program }), accepted('start-bind/do/1')]).when(accepted('claim-handle/do/1', { attachHandle: handle }));
    const job = claimed.outputs.find((output) => output.kind === 'job');
    expect(job).toMatchObject({ key: 'program-region/do/1', job: { hostname: 'compute-1', kind: 'program', params: { bitstreamId: 'bs1', image: { sha256: 'a'.repeat(64) } } } });
  });
});
