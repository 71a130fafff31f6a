import { jobResultRoute } from '../domain/job-results';
import type { StartingInput } from '../domain/workflow-input';
import { defineStepWorkflow } from '../domain/steps/step-workflow';

/** What the demo order starts with. */
export interface DemoOrder {
  readonly orderId: string;
  readonly hostname: string;
}

export const DEMO_STEP_TIMEOUT_MS = 60_000;

/**
 * Three steps, the shape of the bind: reserve (a command), program (a job
 * whose result comes back as the jobs context's `jobs.JobCompleted` /
 * `jobs.JobFailed`), bind (a command); each undone in reverse on failure.
 * Started by `demo.OrderPlaced`.
 */
export const demoWorkflow = defineStepWorkflow<DemoOrder>({
  name: 'demo',
  routes: [
    { types: ['demo.OrderPlaced'], starts: true, workflowId: (event) => (event.data as DemoOrder).orderId },
    jobResultRoute('demo'),
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
      compensate: ({ data }) => ({ kind: 'job', job: { hostname: data.hostname, kind: 'revert', params: { orderId: data.orderId } } }),
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
