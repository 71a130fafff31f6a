import type { JobKind } from '../../domain/job-kinds';
import type { JobParams } from '../../domain/job-params';
import type { KnownJob } from '../../domain/job.state';

/** A job as the agent's long poll receives it. */
export interface JobOffer {
  readonly jobId: string;
  readonly kind: JobKind;
  readonly params: JobParams;
  readonly timeoutSeconds: number;
  readonly requestedAt: string;
  /** 1 the first time; more when offered again after an agent restart. */
  readonly attempt: number;
}

/** What the agent is offered of a job it is dispatched. */
export function offerOf({ jobId, kind, params, timeoutSeconds, requestedAt, attempt }: KnownJob): JobOffer {
  return { jobId, kind, params, timeoutSeconds, requestedAt, attempt };
}
