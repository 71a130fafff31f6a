import type { JobOrigin } from '@ledger/kernel';
import type { JobKind } from './job-kinds';
import type { JobParams } from './job-params';
import type { JobEvent } from './job.events';

export type JobStatus = 'requested' | 'dispatched' | 'completed' | 'failed';

/** One job as its stream tells it. Evidence is not kept: it may be large, and deciding never needs it. */
export type JobState =
  | { readonly status: 'none' }
  | {
      readonly status: JobStatus;
      readonly jobId: string;
      readonly hostname: string;
      readonly kind: JobKind;
      readonly params: JobParams;
      readonly timeoutSeconds: number;
      readonly requestedAt: string;
      /** 0 until dispatched. */
      readonly attempt: number;
      readonly agentBoot: string | null;
      /** The failure code once failed. */
      readonly failureCode: string | null;
      /** The workflow attempt that asked for it, carried on the result. */
      readonly origin: JobOrigin | null;
    };

export type KnownJob = Exclude<JobState, { status: 'none' }>;

export const initialJobState = (): JobState => ({ status: 'none' });

export const isFinished = (state: JobState): boolean => state.status === 'completed' || state.status === 'failed';

/** When the ledger stops waiting for a result: `requestedAt + timeoutSeconds`, in epoch milliseconds. */
export const jobDeadline = (job: Pick<KnownJob, 'requestedAt' | 'timeoutSeconds'>): number => Date.parse(job.requestedAt) + job.timeoutSeconds * 1000;

export function evolveJob(state: JobState, event: JobEvent): JobState {
  switch (event.type) {
    case 'jobs.JobRequested':
      return { status: 'requested', ...event.data, origin: event.data.origin ?? null, attempt: 0, agentBoot: null, failureCode: null };
    case 'jobs.JobDispatched':
      return state.status === 'none' ? state : { ...state, status: 'dispatched', attempt: event.data.attempt, agentBoot: event.data.agentBoot };
    case 'jobs.JobCompleted':
      return state.status === 'none' ? state : { ...state, status: 'completed' };
    case 'jobs.JobFailed':
      return state.status === 'none' ? state : { ...state, status: 'failed', failureCode: event.data.code };
    default:
      return state;
  }
}
