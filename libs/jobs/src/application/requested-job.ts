/** A job just recorded: its id and the global position of its JobRequested (for read-your-writes). */
export interface RequestedJob {
  readonly jobId: string;
  readonly position: number;
}
