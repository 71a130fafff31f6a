import type { WorkflowInput, WorkflowOutput } from '@ledger/workflows';
import { workflowSpec } from '@ledger/workflows/testing';
import { reclaimIdOf, type ReclaimStart, reclaimWorkflow } from './reclaim-workflow';

const T0 = '2026-11-25T00:00:00.000Z';
const T_DUE = '2026-11-25T00:05:00.000Z';
const data: ReclaimStart = {
  deviceUuid: 'd1',
  handle: 'MIG-5c89852c-d268-c3f3-1b07-005d5ae1dc3f',
  hostname: 'compute-1',
  pciAddress: '0000:3b:00.0',
  handleUuid: 'h1',
  idleCount: 1,
  idleMs: 300_000,
  afterClean: false,
};
const reclaimId = reclaimIdOf(data);
const idle = (start: ReclaimStart = data): WorkflowInput => ({ kind: 'event', id: 'e1', at: T0, type: 'inventory.PartitionIdle', stream: 'device-d1', data: start });
const timer: WorkflowInput = { kind: 'timer', id: 'timer:1', at: T_DUE, key: 'delayed-start' };
const accepted = (key: string): WorkflowInput => ({ kind: 'reply', id: `reply:${key}`, at: T_DUE, key, outcome: 'accepted', reply: { appended: 1 } });
const rejected = (key: string, code: string): WorkflowInput => ({ kind: 'reply', id: `reply:${key}`, at: T_DUE, key, outcome: 'rejected', error: { code, message: code } });
const jobResult = (key: string, type: 'jobs.JobCompleted' | 'jobs.JobFailed', result: Record<string, unknown>): WorkflowInput => ({
  kind: 'event',
  id: `result:${key}`,
  at: T_DUE,
  type,
  stream: `job-${key}`,
  data: { jobId: `job:${key}`, origin: { workflow: 'reclaim', workflowId: reclaimId, key }, ...result },
});
const sent = (outputs: readonly WorkflowOutput[]): Record<string, unknown>[] =>
  outputs.flatMap((output): Record<string, unknown>[] =>
    output.kind === 'command'
      ? [{ key: output.key, type: output.command.type, data: output.command.data }]
      : output.kind === 'job'
        ? [{ key: output.key, kind: output.job.kind, params: output.job.params }]
        : (output.kind === 'schedule' && !output.key.endsWith('/timeout')) || output.kind === 'complete'
          ? [{ kind: output.kind, ...('dueAt' in output ? { dueAt: output.dueAt } : { outcome: output.outcome }) }]
          : [],
  );

const claim = { key: 'claim-partition/do/1', type: 'inventory.ClaimReclaim', data: { deviceUuid: 'd1', handleUuid: 'h1', reclaimId, idleCount: 1 } };
const destroy = { key: 'destroy-partition/do/1', kind: 'destroy', params: { deviceUuid: 'd1', pciAddress: '0000:3b:00.0', handle: data.handle, reason: 'reclaimed' } };

describe('the reclaim workflow', () => {
  const spec = workflowSpec(reclaimWorkflow);

  it('waits the idle time on a durable timer, then claims the partition for the reclaim and has the agent destroy it', () => {
    expect(sent(spec.given([]).when(idle()).outputs)).toEqual([{ kind: 'schedule', dueAt: T_DUE }]);
    expect(sent(spec.given([idle()]).when(timer).outputs)).toEqual([claim]);
    expect(sent(spec.given([idle(), timer]).when(accepted('claim-partition/do/1')).outputs)).toEqual([destroy]);
    const done = spec.given([idle(), timer, accepted('claim-partition/do/1')]).when(jobResult('destroy-partition/do/1', 'jobs.JobCompleted', { evidence: { handle: data.handle, changed: true } }));
    expect(sent(done.outputs)).toEqual([{ kind: 'complete', outcome: 'completed' }]);
  });

  it('claims at once when the wait is 0, and does nothing for an idle period that waits on a clean', () => {
    expect(sent(spec.given([]).when(idle({ ...data, idleMs: 0 })).outputs)).toEqual([claim]);
    expect(reclaimWorkflow.routes[0]!.workflowId({ id: 'e1', type: 'inventory.PartitionIdle', stream: 'device-d1', data: { ...data, afterClean: true }, recordedAt: T0, metadata: { correlationId: 'c', causationId: null } })).toBeUndefined();
  });

  it('ends with nothing done when a bind used the partition during the wait', () => {
    const refused = spec.given([idle(), timer]).when(rejected('claim-partition/do/1', 'INVENTORY.PARTITION_NOT_IDLE'));
    expect(sent(refused.outputs)).toEqual([{ kind: 'complete', outcome: 'compensated' }]);
  });

  it('gives the handle back when the destroy fails twice, so the partition is offered again', () => {
    const given = [idle(), timer, accepted('claim-partition/do/1'), jobResult('destroy-partition/do/1', 'jobs.JobFailed', { code: 'DRIVER.BUSY', reason: 'in use' })];
    expect(sent(spec.given(given.slice(0, -1)).when(given.at(-1)!).outputs)).toEqual([{ ...destroy, key: 'destroy-partition/do/2' }]);
    const givenUp = spec.given(given).when(jobResult('destroy-partition/do/2', 'jobs.JobFailed', { code: 'DRIVER.BUSY', reason: 'in use' }));
    expect(sent(givenUp.outputs)).toEqual([
      { key: 'claim-partition/compensate/1', type: 'inventory.ReleaseReclaim', data: { deviceUuid: 'd1', handleUuid: 'h1', reclaimId } },
    ]);
  });
});
