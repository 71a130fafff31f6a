/** A job just recorded: its id and the global position of its request's append (for read-your-writes). */
export interface RequestedJob {
  readonly jobId: string;
  /** Null when the caller named a job id that was requested before: nothing was recorded. */
  readonly position: number | null;
}
