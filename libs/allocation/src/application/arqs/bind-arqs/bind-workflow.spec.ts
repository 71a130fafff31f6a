import { decidePending, emptyRecord, evolveRecord, upcastWorkflowEvent, type WorkflowInput, type WorkflowOutput } from '@ledger/workflows';
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
      { key: 'claim-handle/do/1', type: 'inventory.ClaimAttachHandle', data: { deviceUuid: 'd1', deployableUuid: 'dep1', arqUuid: 'a1', bindId: 'b1', projectId: 'p1' } },
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

  it('ends the request BindFailed as ARQ.BIND_FAILED when an operator cancelled it, with the cancel as the reason', () => {
    const cancel: WorkflowInput = { kind: 'cancel', id: 'c1', at: T0, by: 'admin', reason: 'tenant left' };
    const given = [start(), accepted('start-bind/do/1'), cancel, accepted('claim-handle/do/1', { attachHandle: handle })];
    expect(commands(spec.given(given).when(accepted('claim-handle/compensate/1')).outputs)).toEqual([
      { key: 'start-bind/compensate/1', type: 'allocation.FailBind', data: { uuid: 'a1', bindId: 'b1', code: 'ARQ.BIND_FAILED', reason: 'cancelled by admin: tenant left' } },
    ]);
  });

  it('decides from a stream recorded when failures were "CODE: message" sentences as from one recorded today', () => {
    const stream = 'workflow-bind-b1';
    const claim = { uuid: 'a1', bindId: 'b1' };
    const noHandle = { code: 'INVENTORY.NO_FREE_ATTACH_HANDLE', message: 'deployable dep1 has no free attach handle' };
    const old = (type: string, data: unknown) => ({ type, data, metadata: { schemaVersion: 1 } });
    const sendOf = (key: string, type: string, commandData: unknown) => ({ kind: 'command', key, id: `${stream}/${key}`, command: { type, data: commandData } });
    const note = (step: string, phase: string, outcome: string, attempt: number, more = {}) => ({ kind: 'step', step, phase, outcome, attempt, ...more });
    // OutputsDecided of schema version 1: the claim's refusal as one sentence; then the FailBind it sent was refused.
    const recorded = [
      old('workflow.InputRecorded', { input: start() }),
      old('workflow.OutputsDecided', { inputId: 'b1', outputs: [note('start-bind', 'do', 'started', 1), sendOf('start-bind/do/1', 'allocation.StartBind', {})] }),
      old('workflow.OutputSent', { outputId: `${stream}/start-bind/do/1` }),
      old('workflow.InputRecorded', { input: accepted('start-bind/do/1') }),
      old('workflow.OutputsDecided', {
        inputId: 'reply:start-bind/do/1',
        outputs: [note('start-bind', 'do', 'done', 1), note('charge-capacity', 'do', 'skipped', 0), note('claim-handle', 'do', 'started', 1), sendOf('claim-handle/do/1', 'inventory.ClaimAttachHandle', {})],
      }),
      old('workflow.OutputSent', { outputId: `${stream}/claim-handle/do/1` }),
      old('workflow.InputRecorded', { input: rejected('claim-handle/do/1', noHandle.code, noHandle.message) }),
      old('workflow.OutputsDecided', {
        inputId: 'reply:claim-handle/do/1',
        outputs: [
          note('claim-handle', 'do', 'failed', 1, { final: true, reason: `${noHandle.code}: ${noHandle.message}` }),
          note('start-bind', 'compensate', 'started', 1),
          sendOf('start-bind/compensate/1', 'allocation.FailBind', { ...claim, code: noHandle.code, reason: noHandle.message }),
        ],
      }),
      old('workflow.OutputSent', { outputId: `${stream}/start-bind/compensate/1` }),
      old('workflow.InputRecorded', { input: rejected('start-bind/compensate/1', 'STORE.BUSY', 'try again') }),
    ];
    const record = recorded.reduce((folded, event, index) => evolveRecord(bindWorkflow, folded, upcastWorkflowEvent(event), index + 1), emptyRecord(bindWorkflow, stream));
    const today = spec.given([start(), accepted('start-bind/do/1'), rejected('claim-handle/do/1', noHandle.code, noHandle.message)]);
    expect(record.state.failure).toEqual({ step: 'claim-handle', code: noHandle.code, reason: noHandle.message });
    expect(record.state.failure).toEqual(today.state.failure);
    const [decision] = decidePending(bindWorkflow, record).decisions;
    expect(commands(decision.data.outputs)).toEqual([
      { key: 'start-bind/compensate/2', type: 'allocation.FailBind', data: { ...claim, code: noHandle.code, reason: noHandle.message } },
    ]);
  });

  describe('when the profile names a bitstream', () => {
    const F1 = 'f1'.repeat(16);
    const previous = { bitstreamId: 'bs0', sha256: '0'.repeat(64), url: '/api/v1/bitstreams/bs0/content' };
    const program = { bitstreamId: 'bs1', sha256: 'a'.repeat(64), url: '/api/v1/bitstreams/bs1/content', functionId: F1, pciAddress: '0000:3b:00.0', expectedFunctionId: null, previous };
    const claimedWith = (overrides: Partial<BindStart['program'] & object> = {}) => [
      start({ program: { ...program, ...overrides } }),
      accepted('start-bind/do/1'),
      accepted('claim-handle/do/1', { attachHandle: handle }),
    ];
    const jobs = (outputs: readonly WorkflowOutput[]) => outputs.flatMap((output) => (output.kind === 'job' ? [{ key: output.key, kind: output.job.kind, params: output.job.params }] : []));
    const jobResult = (key: string, type: 'jobs.JobCompleted' | 'jobs.JobFailed', data: Record<string, unknown>): WorkflowInput => ({
      kind: 'event',
      id: `result:${key}`,
      at: T0,
      type,
      stream: `job-${key}`,
      data: { jobId: `job:${key}`, origin: { workflow: 'bind', workflowId: 'b1', key }, ...data },
    });
    const programmed = (key: string, functionId = F1) => jobResult(key, 'jobs.JobCompleted', { evidence: { functionId, sha256: 'a'.repeat(64), previousFunctionId: null } });

    it('programs the region with the image from the ledger, then has the agent probe the function before marking bound', () => {
      // At the claimed handle's address: the VF serves the region of the deployable the bind claimed.
      expect(jobs(spec.given(claimedWith().slice(0, -1)).when(claimedWith().at(-1)!).outputs)).toEqual([
        {
          key: 'program-region/do/1',
          kind: 'program',
          params: { deviceUuid: 'd1', deployableUuid: 'dep1', pciAddress: '0000:3b:00.1', image: { url: '/api/v1/bitstreams/bs1/content', sha256: 'a'.repeat(64) }, bitstreamId: 'bs1' },
        },
      ]);
      const verified = spec.given(claimedWith()).when(programmed('program-region/do/1'));
      expect(verified.outputs).toContainEqual(expect.objectContaining({ kind: 'step', step: 'program-region', outcome: 'done', evidence: expect.objectContaining({ functionId: F1 }) }));
      expect(jobs(verified.outputs)).toEqual([{ key: 'verify-access/do/1', kind: 'probe', params: { deviceUuid: 'd1', pciAddress: '0000:3b:00.0', instanceUuid: 'i1' } }]);
      const bound = spec.given([...claimedWith(), programmed('program-region/do/1')]).when(jobResult('verify-access/do/1', 'jobs.JobCompleted', { evidence: {} }));
      expect(commands(bound.outputs).map((command) => command.key)).toEqual(['mark-bound/do/1']);
    });

    it('names the region of a region partition it claimed, in the load and in the undo', () => {
      const region = { uuid: 'h2', type: 'PCI', info: { domain: '0000', bus: '3b', device: '00', function: '0', region_id: 'region2' } };
      const given = [start({ program }), accepted('start-bind/do/1'), accepted('claim-handle/do/1', { attachHandle: region })];
      expect(jobs(spec.given(given.slice(0, -1)).when(given.at(-1)!).outputs)).toEqual([
        expect.objectContaining({ key: 'program-region/do/1', params: expect.objectContaining({ pciAddress: '0000:3b:00.0', region: 'region2', deployableUuid: 'dep1' }) }),
      ]);
      const unreachable = (key: string) => jobResult(key, 'jobs.JobFailed', { code: 'DRIVER.UNREACHABLE', reason: 'no answer' });
      const failed = [...given, programmed('program-region/do/1'), unreachable('verify-access/do/1'), unreachable('verify-access/do/2')];
      expect(jobs(spec.given(failed.slice(0, -1)).when(failed.at(-1)!).outputs)).toEqual([
        expect.objectContaining({ key: 'program-region/compensate/1', params: expect.objectContaining({ region: 'region2', bitstreamId: 'bs0' }) }),
      ]);
    });

    it('loads back what the region held when the probe fails, then releases the handle and fails the bind', () => {
      const given = [...claimedWith(), programmed('program-region/do/1'), jobResult('verify-access/do/1', 'jobs.JobFailed', { code: 'DRIVER.UNREACHABLE', reason: 'no answer' })];
      const failed = spec.given(given).when(jobResult('verify-access/do/2', 'jobs.JobFailed', { code: 'DRIVER.UNREACHABLE', reason: 'no answer' }));
      expect(jobs(failed.outputs)).toEqual([
        { key: 'program-region/compensate/1', kind: 'program', params: expect.objectContaining({ image: { url: previous.url, sha256: previous.sha256 }, bitstreamId: 'bs0' }) },
      ]);
      const restored = spec.given([...given, jobResult('verify-access/do/2', 'jobs.JobFailed', { code: 'DRIVER.UNREACHABLE', reason: 'no answer' })]).when(programmed('program-region/compensate/1', '0'.repeat(32)));
      expect(commands(restored.outputs).map((command) => command.type)).toEqual(['inventory.ReleaseAttachHandle']);
    });

    it('leaves a region that held nothing known as it is (nothing to load back)', () => {
      const given = [...claimedWith({ previous: null }), programmed('program-region/do/1'), jobResult('verify-access/do/1', 'jobs.JobFailed', { code: 'DRIVER.UNREACHABLE', reason: 'x' })];
      const failed = spec.given(given).when(jobResult('verify-access/do/2', 'jobs.JobFailed', { code: 'DRIVER.UNREACHABLE', reason: 'x' }));
      expect(failed.outputs).toContainEqual({ kind: 'step', step: 'program-region', phase: 'compensate', outcome: 'done', attempt: 1, evidence: { nothingToUndo: true } });
      expect(commands(failed.outputs).map((command) => command.type)).toEqual(['inventory.ReleaseAttachHandle']);
    });

    it('fails the step when the agent reads back another function than the profile asked for, and undoes the load', () => {
      const given = claimedWith({ expectedFunctionId: F1 });
      const wrong = spec.given(given).when(programmed('program-region/do/1', 'ee'.repeat(16)));
      expect(wrong.outputs).toContainEqual(
        expect.objectContaining({ step: 'program-region', outcome: 'failed', final: false, tookEffect: true, code: 'ARQ.FUNCTION_MISMATCH', reason: expect.stringMatching(/^the region reads back function e/) }),
      );
      expect(jobs(wrong.outputs).map((job) => job.key)).toEqual(['program-region/do/2']);
      const givenUp = spec.given([...given, programmed('program-region/do/1', 'ee'.repeat(16))]).when(programmed('program-region/do/2', 'ee'.repeat(16)));
      expect(jobs(givenUp.outputs)).toEqual([expect.objectContaining({ key: 'program-region/compensate/1', params: expect.objectContaining({ bitstreamId: 'bs0' }) })]);
      // The function asked for, read back with dashes and in capitals, is the same function.
      const dashed = `${F1.slice(0, 8)}-${F1.slice(8)}`.toUpperCase();
      expect(jobs(spec.given(given).when(programmed('program-region/do/1', dashed)).outputs).map((job) => job.key)).toEqual(['verify-access/do/1']);
    });

    it('compensates nothing of a load that failed on the agent (the driver put the region back)', () => {
      const given = [...claimedWith(), jobResult('program-region/do/1', 'jobs.JobFailed', { code: 'DRIVER.INJECTED_FAILURE', reason: 'x' })];
      const failed = spec.given(given).when(jobResult('program-region/do/2', 'jobs.JobFailed', { code: 'DRIVER.INJECTED_FAILURE', reason: 'x' }));
      expect(jobs(failed.outputs)).toEqual([]);
      expect(commands(failed.outputs).map((command) => command.type)).toEqual(['inventory.ReleaseAttachHandle']);
    });
  });
});
