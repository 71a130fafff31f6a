import type { JobState } from '../domain/job.state';

/** What a job command did, and the job after it. */
export interface JobCommandResult {
  readonly jobId: string;
  readonly appended: number;
  /** Global position of the last appended event; null when nothing was appended. */
  readonly position: number | null;
  readonly state: JobState;
}

export function toJobCommandResult(jobId: string, result: { readonly appended: number; readonly position: number | undefined; readonly state: JobState }): JobCommandResult {
  return { jobId: jobId.toLowerCase(), appended: result.appended, position: result.position ?? null, state: result.state };
}
