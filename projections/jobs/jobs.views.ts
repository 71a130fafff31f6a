import type { JobStatus } from '@ledger/jobs';

/** One job as the API shows it. */
export interface JobView {
  readonly jobId: string;
  readonly hostname: string;
  readonly kind: string;
  readonly params: Record<string, unknown>;
  readonly timeoutSeconds: number;
  readonly state: JobStatus;
  /** 0 until dispatched; more than 1 after redelivery to a restarted agent. */
  readonly attempt: number;
  readonly requestedAt: string;
  /** When the ledger fails the job with JOB.TIMED_OUT if no result came. */
  readonly deadline: string;
  readonly dispatchedAt: string | null;
  readonly finishedAt: string | null;
  /** Failures only. */
  readonly code: string | null;
  readonly reason: string | null;
  /** The agent's evidence once finished (the ledger's for a timeout). */
  readonly evidence: Record<string, unknown> | null;
  /** Global position of the JobRequested. */
  readonly position: number;
}

export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

/** A driver on a host, from the driver jobs' facts. */
export interface HostDriverView {
  readonly driver: string;
  /** `failed`: an install failed and nothing is installed. */
  readonly status: 'installed' | 'failed';
  readonly version: string | null;
  readonly installedAt: string | null;
  /** The last playbook's recap (null when the job timed out without one). */
  readonly recap: Record<string, number> | null;
  readonly lastJobId: string;
  /** The last failure since the last success. */
  readonly lastFailure: { readonly operation: string; readonly reason: string; readonly failedAt: string } | null;
  readonly updatedAt: string;
}
