import type { WorkflowInput, WorkflowOutput } from '@ledger/workflows';
import { workflowSpec } from '@ledger/workflows/testing';
import { type ProvisionStart, provisionWorkflow } from './provision-workflow';

const T0 = '2026-11-27T00:00:00.000Z';
const SHELL = { bitstreamId: 'bs-new', sha256: 'a'.repeat(64), interfaceId: 'f'.repeat(32), url: 'http://ledger/api/v1/bitstreams/bs-new/content' };
const PREVIOUS = { bitstreamId: 'bs-old', sha256: 'b'.repeat(64), url: 'http://ledger/api/v1/bitstreams/bs-old/content' };
const data = (overrides: Partial<ProvisionStart> = {}): ProvisionStart => ({
  provisionId: 'p1',
  hostname: 'compute-1',
  device: { uuid: 'd1', pciAddress: '0000:3b:00.0' },
  shell: SHELL,
  previousShell: PREVIOUS,
  vfs: 8,
  ...overrides,
});
const start = (overrides: Partial<ProvisionStart> = {}): WorkflowInput => ({ kind: 'start', id: 'p1', at: T0, data: data(overrides) });
const accepted = (key: string, reply?: unknown): WorkflowInput => ({ kind: 'reply', id: `reply:${key}`, at: T0, key, outcome: 'accepted', reply });
const rejected = (key: string, code: string, message: string): WorkflowInput => ({ kind: 'reply', id: `reply:${key}`, at: T0, key, outcome: 'rejected', error: { code, message } });
const jobDone = (key: string, evidence: unknown): WorkflowInput => ({
  kind: 'event',
  id: `done:${key}`,
  at: T0,
  type: 'jobs.JobCompleted',
  stream: `job-${key}`,
  data: { jobId: `j:${key}`, origin: { workflow: 'provision', workflowId: 'p1', key }, evidence },
});
const jobFailed = (key: string, code: string, reason: string): WorkflowInput => ({
  kind: 'event',
  id: `failed:${key}`,
  at: T0,
  type: 'jobs.JobFailed',
  stream: `job-${key}`,
  data: { jobId: `j:${key}`, origin: { workflow: 'provision', workflowId: 'p1', key }, code, reason },
});
/** Each command or job sent: its key, and what it asks. */
type Sent = { key: string; command?: string; data?: unknown; job?: string; params?: unknown };
const sent = (outputs: readonly WorkflowOutput[]): Sent[] =>
  outputs.flatMap((output): Sent[] => {
    if (output.kind === 'command') return [{ key: output.key, command: output.command.type, data: output.command.data }];
    if (output.kind === 'job') return [{ key: output.key, job: output.job.kind, params: output.job.params }];
    return [];
  });

const shellEvidence = { target: 'shell', sha256: SHELL.sha256, interfaceId: SHELL.interfaceId, previousInterfaceId: 'e'.repeat(32) };
const vfsEvidence = { numVfs: 8, previousNumVfs: 4, changed: true };
/** The inputs of a run that got as far as configuring the VFs. */
const throughShell = [
  start(),
  accepted('register-host/do/1'),
  accepted('agent-ready/do/1'),
  jobDone('agent-ready/do/1', { reachable: true }),
  accepted('report-devices/do/1'),
  jobDone('report-devices/do/1', { devices: 4 }),
  accepted('sync-placement/do/1', { placement: 'not configured' }),
  accepted('program-shell/do/1'),
  jobDone('program-shell/do/1', shellEvidence),
  accepted('verify-shell/do/1', { sha256: SHELL.sha256, interfaceId: SHELL.interfaceId }),
];

describe('the provision workflow', () => {
  const spec = workflowSpec(provisionWorkflow);
  const next = (given: readonly WorkflowInput[], when: WorkflowInput) => sent(spec.given(given).when(when).outputs);

  it('records the provisioning on the host, then has the agent probe, discover and wait for Placement', () => {
    expect(next([], start())).toEqual([{ key: 'register-host/do/1', command: 'inventory.StartHostProvisioning', data: { hostname: 'compute-1', provisionId: 'p1' } }]);
    const probe = spec.given([start()]).when(accepted('register-host/do/1')).outputs.find((output) => output.kind === 'job');
    // The probe waits in the host's queue while the host boots: its job times out after minutes, not the probe's default seconds.
    expect(probe).toEqual({ kind: 'job', key: 'agent-ready/do/1', job: { hostname: 'compute-1', kind: 'probe', params: { deviceUuid: 'd1', pciAddress: '0000:3b:00.0' }, timeoutSeconds: 600 } });
    // The port accepting the job proves nothing ran: the step waits for its result.
    expect(next(throughShell.slice(0, 2), accepted('agent-ready/do/1'))).toEqual([]);
    expect(next(throughShell.slice(0, 3), throughShell[3])).toEqual([{ key: 'report-devices/do/1', job: 'discover', params: {} }]);
    expect(next(throughShell.slice(0, 5), throughShell[5])).toEqual([{ key: 'sync-placement/do/1', command: 'provisioning.AwaitPlacementSync', data: { hostname: 'compute-1' } }]);
  });

  it('loads the registered shell, checks what the agent read back against the registry, configures the VFs and marks the host provisioned', () => {
    expect(next(throughShell.slice(0, 6), throughShell[6])).toEqual([
      {
        key: 'program-shell/do/1',
        job: 'program',
        params: { deviceUuid: 'd1', pciAddress: '0000:3b:00.0', target: 'shell', image: { url: SHELL.url, sha256: SHELL.sha256 }, bitstreamId: 'bs-new' },
      },
    ]);
    expect(next(throughShell.slice(0, 8), throughShell[8])).toEqual([
      {
        key: 'verify-shell/do/1',
        command: 'provisioning.VerifyShell',
        data: { expected: { bitstreamId: 'bs-new', sha256: SHELL.sha256, interfaceId: SHELL.interfaceId }, evidence: shellEvidence },
      },
    ]);
    expect(next(throughShell.slice(0, 9), throughShell[9])).toEqual([{ key: 'configure-vfs/do/1', job: 'configure-vfs', params: { deviceUuid: 'd1', pciAddress: '0000:3b:00.0', numVfs: 8 } }]);
    const configured = [...throughShell, accepted('configure-vfs/do/1')];
    expect(next(configured, jobDone('configure-vfs/do/1', vfsEvidence))).toEqual([
      { key: 'mark-provisioned/do/1', command: 'inventory.CompleteHostProvisioning', data: { hostname: 'compute-1', provisionId: 'p1' } },
    ]);
    const done = spec.given([...configured, jobDone('configure-vfs/do/1', vfsEvidence)]).when(accepted('mark-provisioned/do/1'));
    expect(done.outputs.at(-1)).toEqual({ kind: 'complete', outcome: 'completed' });
  });

  it('when the VFs cannot be configured, loads the previous shell back and marks the host failed', () => {
    const failing = [...throughShell, accepted('configure-vfs/do/1'), jobFailed('configure-vfs/do/1', 'JOB.AGENT_ERROR', 'sysfs refused')];
    expect(next(failing.slice(0, -1), failing.at(-1)!)).toEqual([{ key: 'configure-vfs/do/2', job: 'configure-vfs', params: { deviceUuid: 'd1', pciAddress: '0000:3b:00.0', numVfs: 8 } }]);
    const given = [...failing, accepted('configure-vfs/do/2')];
    expect(next(given, jobFailed('configure-vfs/do/2', 'JOB.AGENT_ERROR', 'sysfs refused'))).toEqual([
      {
        key: 'program-shell/compensate/1',
        job: 'program',
        params: { deviceUuid: 'd1', pciAddress: '0000:3b:00.0', target: 'shell', image: { url: PREVIOUS.url, sha256: PREVIOUS.sha256 }, bitstreamId: 'bs-old' },
      },
    ]);
    const undoing = [...given, jobFailed('configure-vfs/do/2', 'JOB.AGENT_ERROR', 'sysfs refused'), accepted('program-shell/compensate/1')];
    expect(next(undoing, jobDone('program-shell/compensate/1', { target: 'shell' }))).toEqual([
      { key: 'register-host/compensate/1', command: 'inventory.FailHostProvisioning', data: { hostname: 'compute-1', provisionId: 'p1', code: 'JOB.AGENT_ERROR', reason: 'sysfs refused' } },
    ]);
    const ended = spec.given([...undoing, jobDone('program-shell/compensate/1', { target: 'shell' })]).when(accepted('register-host/compensate/1'));
    expect(ended.outputs.at(-1)).toEqual({ kind: 'complete', outcome: 'compensated', failure: { code: 'JOB.AGENT_ERROR', reason: 'sysfs refused' } });
  });

  it('a shell that does not match the registry is unloaded again; with no previous shell known, nothing is loaded back', () => {
    const mismatch = rejected('verify-shell/do/1', 'PROVISION.SHELL_MISMATCH', 'interfaceId differs');
    expect(next(throughShell.slice(0, 9), mismatch).map((output) => output.key)).toEqual(['program-shell/compensate/1']);
    const unknown = [start({ previousShell: null }), ...throughShell.slice(1, 9)];
    const outputs = spec.given(unknown).when(mismatch).outputs;
    expect(outputs).toContainEqual({ kind: 'step', step: 'program-shell', phase: 'compensate', outcome: 'done', attempt: 1, evidence: { nothingToUndo: true } });
    expect(sent(outputs).map((output) => output.key)).toEqual(['register-host/compensate/1']);
  });

  it('configures the previous VF count back when a later step fails', () => {
    const configured = [...throughShell, accepted('configure-vfs/do/1'), jobDone('configure-vfs/do/1', vfsEvidence)];
    const given = [...configured, rejected('mark-provisioned/do/1', 'INVENTORY.PROVISIONING_NOT_RUNNING', 'x'), rejected('mark-provisioned/do/2', 'INVENTORY.PROVISIONING_NOT_RUNNING', 'x')];
    expect(next(given, rejected('mark-provisioned/do/3', 'INVENTORY.PROVISIONING_NOT_RUNNING', 'x'))).toEqual([
      { key: 'configure-vfs/compensate/1', job: 'configure-vfs', params: { deviceUuid: 'd1', pciAddress: '0000:3b:00.0', numVfs: 4 } },
    ]);
  });

  it('an agent that never answers fails the provisioning after its attempts, marking the host failed', () => {
    const given = [start(), accepted('register-host/do/1'), rejected('agent-ready/do/1', 'JOB.AGENT_UNAVAILABLE', 'no agent'), rejected('agent-ready/do/2', 'JOB.AGENT_UNAVAILABLE', 'no agent')];
    expect(next(given, rejected('agent-ready/do/3', 'JOB.AGENT_UNAVAILABLE', 'no agent'))).toEqual([
      { key: 'register-host/compensate/1', command: 'inventory.FailHostProvisioning', data: { hostname: 'compute-1', provisionId: 'p1', code: 'JOB.AGENT_UNAVAILABLE', reason: 'no agent' } },
    ]);
  });
});
