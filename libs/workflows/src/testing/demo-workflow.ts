import type { StartingInput, WorkflowInput } from '../domain/workflow-input';
import type { StepVerdict } from '../domain/steps/step-definition';
import { defineStepWorkflow } from '../domain/steps/step-workflow';

/** What the demo order starts with. */
export interface DemoOrder {
  readonly orderId: string;
  readonly hostname: string;
}

export const DEMO_STEP_TIMEOUT_MS = 60_000;

/** The agent's answer to a demo job: `key` is the job's output key (`program/do/1`). */
export interface DemoJobFinished {
  readonly orderId: string;
  readonly key: string;
  readonly ok: boolean;
  readonly evidence?: unknown;
}

/** The verdict of a `demo.JobFinished` on the job of `step`/`phase` (any attempt). */
const jobVerdict =
  (step: string, phase: 'do' | 'compensate') =>
  (input: WorkflowInput): StepVerdict | undefined => {
    if (input.kind !== 'event' || input.type !== 'demo.JobFinished') return undefined;
    const finished = input.data as DemoJobFinished;
    if (!finished.key.startsWith(`${step}/${phase}/`)) return undefined;
    return finished.ok ? { done: true, evidence: finished.evidence } : { done: false, reason: `agent failed ${finished.key}`, evidence: finished.evidence };
  };

/**
 * Three steps, the shape of the bind: reserve (a command), program (a job
 * whose result comes back as an event), bind (a command); each undone in
 * reverse on failure. Started by `demo.OrderPlaced`.
 */
export const demoWorkflow = defineStepWorkflow<DemoOrder>({
  name: 'demo',
  routes: [
    { types: ['demo.OrderPlaced'], starts: true, workflowId: (event) => (event.data as DemoOrder).orderId },
    { types: ['demo.JobFinished'], workflowId: (event) => (event.data as DemoJobFinished).orderId },
  ],
  start: (input: StartingInput) => (input.kind === 'event' && input.type === 'demo.OrderPlaced' ? (input.data as DemoOrder) : undefined),
  steps: [
    {
      name: 'reserve',
      do: ({ data }) => ({ kind: 'command', command: { type: 'demo.Reserve', data: { orderId: data.orderId } } }),
      compensate: ({ data }) => ({ kind: 'command', command: { type: 'demo.Release', data: { orderId: data.orderId } } }),
      timeoutMs: DEMO_STEP_TIMEOUT_MS,
      retry: { maxAttempts: 2 },
    },
    {
      name: 'program',
      do: ({ data }) => ({ kind: 'job', job: { hostname: data.hostname, kind: 'program', params: { orderId: data.orderId } } }),
      doneWhen: jobVerdict('program', 'do'),
      compensate: ({ data }) => ({ kind: 'job', job: { hostname: data.hostname, kind: 'revert', params: { orderId: data.orderId } } }),
      compensatedWhen: jobVerdict('program', 'compensate'),
      timeoutMs: DEMO_STEP_TIMEOUT_MS,
      retry: { maxAttempts: 2 },
    },
    {
      name: 'bind',
      do: ({ data }) => ({ kind: 'command', command: { type: 'demo.Bind', data: { orderId: data.orderId } } }),
      compensate: ({ data }) => ({ kind: 'command', command: { type: 'demo.Unbind', data: { orderId: data.orderId } } }),
      timeoutMs: DEMO_STEP_TIMEOUT_MS,
      retry: { maxAttempts: 2 },
    },
  ],
});
