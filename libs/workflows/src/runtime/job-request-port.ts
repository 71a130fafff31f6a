import type { CommandContext } from '@ledger/eventstore';
import type { JobOrigin } from '@ledger/kernel';
import type { JobOutput } from '../domain/workflow-output';
import { answerOf } from './port-answer';
import { workflowCommandContext } from './workflow-command-context';
import { workflowJobId } from './workflow-job-id';
import type { PortAnswer, WorkflowDispatch, WorkflowJobPort } from './workflow-ports';

/** A job as the jobs context takes it from a workflow: its id derived from the dispatch, and where its result goes. */
export interface WorkflowJobRequest {
  readonly jobId: string;
  readonly hostname: string;
  readonly kind: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly timeoutSeconds?: number;
  readonly origin: JobOrigin;
}

/** Records a job (the app's jobs context); a job id that exists must record nothing and succeed. */
export type RequestWorkflowJob = (request: WorkflowJobRequest, context: CommandContext) => Promise<unknown>;

/**
 * The job port: each dispatch asks the jobs context for one job whose id
 * is derived from the dispatch id, so a dispatch sent again after a crash
 * names the same job and records nothing twice. The origin recorded with
 * it brings the result back (`jobResultRoute`). A refusal (409
 * JOB.AGENT_UNAVAILABLE, 404 for an unknown host) is an answer: the step's
 * attempt failed.
 */
export class JobRequestPort implements WorkflowJobPort {
  constructor(private readonly requestJob: RequestWorkflowJob) {}

  request(job: WorkflowDispatch<JobOutput['job']>): Promise<PortAnswer> {
    const jobId = workflowJobId(job.id);
    const origin = { workflow: job.workflow, workflowId: job.workflowId, key: job.key };
    const { hostname, kind, params, timeoutSeconds, project } = job.payload;
    const request = { jobId, hostname, kind, params, ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }), origin };
    return answerOf(async () => {
      await this.requestJob(request, workflowCommandContext(job, project ?? null));
      return { jobId };
    });
  }
}
