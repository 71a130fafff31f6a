/**
 * Who asked for a job, when a workflow did: recorded on `jobs.JobRequested`
 * and carried on the job's `jobs.JobCompleted` / `jobs.JobFailed`, so the
 * result routes back to the instance and the attempt (`key`, the output's
 * key such as `program/do/1`) without a lookup. Shared by the jobs context,
 * which records it, and the workflows, which read it.
 */
export interface JobOrigin {
  readonly workflow: string;
  readonly workflowId: string;
  readonly key: string;
}
