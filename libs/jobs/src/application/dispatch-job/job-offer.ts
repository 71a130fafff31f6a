import type { JobKind } from '../../domain/job-kinds';
import type { JobParams } from '../../domain/job-params';

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
