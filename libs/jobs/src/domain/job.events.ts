import type { DomainEvent, JobOrigin } from '@ledger/kernel';
import type { JobKind } from './job-kinds';
import type { JobParams } from './job-params';

/** Event type names of the jobs context. */
export const JobEventTypes = {
  JobRequested: 'jobs.JobRequested',
  JobDispatched: 'jobs.JobDispatched',
  JobCompleted: 'jobs.JobCompleted',
  JobFailed: 'jobs.JobFailed',
} as const;

export type JobEventType = (typeof JobEventTypes)[keyof typeof JobEventTypes];

/** Schema version of each event type's data (upcast older versions on read). */
export const JOB_EVENT_SCHEMA_VERSIONS: Readonly<Record<JobEventType, number>> = {
  'jobs.JobRequested': 1,
  'jobs.JobDispatched': 1,
  'jobs.JobCompleted': 1,
  'jobs.JobFailed': 1,
};

/** Every job event type, for processor `handles` lists. */
export const JOB_EVENT_TYPES: readonly JobEventType[] = Object.values(JobEventTypes);

/** What an agent proves it did (or found when it failed): a JSON object of at most 64 KiB. */
export type JobEvidence = Readonly<Record<string, unknown>>;

/** Someone asked `hostname`'s agent to do something. */
export type JobRequested = DomainEvent<
  'jobs.JobRequested',
  {
    readonly jobId: string;
    readonly hostname: string;
    readonly kind: JobKind;
    readonly params: JobParams;
    readonly timeoutSeconds: number;
    readonly requestedAt: string;
    /** Present when a workflow asked for the job (absent in events recorded before workflows existed). */
    readonly origin?: JobOrigin;
  }
>;

/**
 * The host's agent took the job (its long poll was answered with it).
 * `agentBoot` is the agent's `X-Agent-Boot`: a later poll with another boot
 * id gets the job again as the next attempt (the agent restarted and lost it).
 */
export type JobDispatched = DomainEvent<
  'jobs.JobDispatched',
  { readonly jobId: string; readonly hostname: string; readonly attempt: number; readonly agentBoot: string | null; readonly dispatchedAt: string }
>;

/** `origin` (the request's, when a workflow asked) lets a route map the result to its workflow instance without a lookup. */
export type JobCompleted = DomainEvent<
  'jobs.JobCompleted',
  { readonly jobId: string; readonly evidence: JobEvidence; readonly completedAt: string; readonly origin?: JobOrigin }
>;

/** The agent reported a failure, or the ledger gave up waiting (`code` JOB.TIMED_OUT). */
export type JobFailed = DomainEvent<
  'jobs.JobFailed',
  {
    readonly jobId: string;
    readonly code: string;
    readonly reason: string;
    readonly evidence: JobEvidence;
    readonly failedAt: string;
    readonly origin?: JobOrigin;
  }
>;

export type JobEvent = JobRequested | JobDispatched | JobCompleted | JobFailed;

export const jobStream = (jobId: string): string => `job-${jobId.toLowerCase()}`;

/** The event that finished a job, whichever way. */
export const isJobFinishedEvent = (event: { readonly type: string }): event is JobCompleted | JobFailed =>
  event.type === 'jobs.JobCompleted' || event.type === 'jobs.JobFailed';
