/**
 * Nest token of the jobs context's answer to "how many jobs are queued for
 * this host?", the heartbeat's `jobsWaiting` hint (the agent polls for jobs
 * at once when it is above 0). Provide it anywhere in the app:
 * `{ provide: JOBS_WAITING, useFactory: (...) => (hostname) => … }`. While
 * no module does, heartbeats answer 0.
 */
export const JOBS_WAITING = Symbol('JOBS_WAITING');

export type JobsWaiting = (hostname: string) => Promise<number>;

export const noJobsWaiting: JobsWaiting = async () => 0;
