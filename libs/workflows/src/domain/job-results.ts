import type { JobOrigin } from '@ledger/kernel';
import type { Failure } from './failure';
import type { WorkflowRoute } from './workflow';
import type { WorkflowInput } from './workflow-input';

/**
 * The jobs context's result events (its `JobEventTypes`), named here as
 * strings: a workflow's domain reads them but may not import another
 * context. Both carry the origin a workflow recorded on the request.
 */
export const JOB_RESULT_TYPES = ['jobs.JobCompleted', 'jobs.JobFailed'] as const;

/** What a job result event carries that a workflow reads. */
interface JobResultData {
  readonly jobId: string;
  readonly origin?: JobOrigin;
  readonly evidence?: unknown;
  readonly code?: string;
  readonly reason?: string;
}

/** A job's result as a workflow sees it: the attempt it answers (`key`), and done with evidence or failed with the job's code and reason. */
export type JobResult =
  | { readonly key: string; readonly jobId: string; readonly done: true; readonly evidence: unknown }
  | (Failure & { readonly key: string; readonly jobId: string; readonly done: false; readonly evidence: unknown });

const originOf = (data: unknown): JobOrigin | undefined => (data as JobResultData | null)?.origin;

/** The result an input carries when it is a job result of workflow `name`, else undefined. */
export function jobResultOf(name: string, input: WorkflowInput): JobResult | undefined {
  if (input.kind !== 'event' || !(JOB_RESULT_TYPES as readonly string[]).includes(input.type)) return undefined;
  const data = input.data as JobResultData;
  if (data.origin?.workflow !== name) return undefined;
  const base = { key: data.origin.key, jobId: data.jobId, evidence: data.evidence };
  if (input.type === 'jobs.JobCompleted') return { ...base, done: true };
  return { ...base, done: false, code: data.code ?? 'JOB.FAILED', reason: data.reason ?? 'the job failed' };
}

/**
 * Routes the results of the jobs workflow `name` requested to the instance
 * that requested them, read from the origin on the event. Add it to the
 * workflow's routes when one of its steps is a job.
 */
export function jobResultRoute(name: string): WorkflowRoute {
  return {
    types: JOB_RESULT_TYPES,
    workflowId: (event) => {
      const origin = originOf(event.data);
      return origin?.workflow === name ? origin.workflowId : undefined;
    },
  };
}
