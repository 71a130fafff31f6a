/**
 * Published on the in-process EventBus once a JobRequested is stored: wakes
 * the host's waiting long polls and lets the timeout sweeper plan for the new
 * deadline. Other replicas learn of the job from the jobs projection instead.
 */
export class JobRequestedNotice {
  constructor(
    readonly jobId: string,
    readonly hostname: string,
    /** Global position of the JobRequested: a poll waits for the projection to reach it. */
    readonly position: number,
    /** Epoch milliseconds after which the job times out. */
    readonly deadline: number,
  ) {}
}
