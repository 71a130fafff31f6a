import type { EventStore } from '@ledger/eventstore';
import { testEvent } from '@ledger/processing/testing';
import type { PortAnswer, WorkflowCommandPort, WorkflowDispatch, WorkflowJobPort } from '../runtime/workflow-ports';
import type { CommandOutput, JobOutput } from '../domain/workflow-output';
import { workflowStream } from '../domain/workflow';
import { workflowJobId } from '../runtime/workflow-job-id';

/** The aggregates' side in tests: records every command by id, refuses the keys it is told to, is down when told. */
export class FakeCommandPort implements WorkflowCommandPort {
  readonly received: WorkflowDispatch<CommandOutput['command']>[] = [];
  readonly refusing = new Set<string>();
  down = false;

  send(command: WorkflowDispatch<CommandOutput['command']>): Promise<PortAnswer> {
    if (this.down) return Promise.reject(new Error('the command side is down'));
    this.received.push(command);
    if (this.refusing.has(command.key)) return Promise.resolve({ outcome: 'rejected', error: { code: 'DEMO.REFUSED', message: `refused ${command.key}` } });
    return Promise.resolve({ outcome: 'accepted', reply: { type: command.payload.type } });
  }

  /** Keys of the commands received, in order (a key twice: sent twice). */
  get keys(): string[] {
    return this.received.map((command) => command.key);
  }
}

/**
 * The agents' side in tests: accepts every job and, unless told to stay
 * silent about it, reports it finished by appending `jobs.JobCompleted` (or
 * `jobs.JobFailed`) with the job's origin to its stream, as the jobs
 * context does with a real agent's result.
 */
export class FakeAgentPort implements WorkflowJobPort {
  readonly received: WorkflowDispatch<JobOutput['job']>[] = [];
  /** Keys whose job the agent reports failed. */
  readonly failing = new Set<string>();
  /** Keys whose job the agent never reports on (it hangs). */
  readonly silent = new Set<string>();

  constructor(
    private readonly store: Pick<EventStore, 'append' | 'appendMany'>,
    private readonly workflow = 'demo',
  ) {}

  async request(job: WorkflowDispatch<JobOutput['job']>): Promise<PortAnswer> {
    this.received.push(job);
    if (!this.silent.has(job.key)) await this.finish(job.workflowId, job.key, !this.failing.has(job.key));
    return { outcome: 'accepted', reply: { jobId: workflowJobId(job.id) } };
  }

  /** Reports the job of attempt `key` of instance `workflowId` finished (as the agent would, late or early). */
  /** Records the job's result; `withFact`, also a fact of another stream after it in the same append (as a device job's is). Resolves to the append's last position. */
  async finish(workflowId: string, key: string, ok: boolean, withFact = false): Promise<number> {
    const jobId = workflowJobId(`${workflowStream(this.workflow, workflowId)}/${key}`);
    const origin = { workflow: this.workflow, workflowId, key };
    const result = ok
      ? testEvent('jobs.JobCompleted', { jobId, origin, evidence: { key, ok } })
      : testEvent('jobs.JobFailed', { jobId, origin, code: 'DEMO.AGENT_FAILED', reason: `agent failed ${key}`, evidence: { key, ok } });
    const fact = { stream: `fact-${jobId}`, events: [testEvent('test.FactOfJob', { jobId })], expected: 'any' as const };
    const appended = await this.store.appendMany([{ stream: `job-${jobId}`, events: [result], expected: 'any' }, ...(withFact ? [fact] : [])]);
    return appended[appended.length - 1].position;
  }

  get keys(): string[] {
    return this.received.map((job) => job.key);
  }
}
