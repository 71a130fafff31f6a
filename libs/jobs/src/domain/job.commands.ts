import type { JobOrigin } from '@ledger/kernel';

/**
 * What the ledger last heard from a host's agent, when a job is requested
 * (the live view's agent status and version). `agentVersion` is null until
 * an agent has sent a heartbeat: a host known only from reports (sent by
 * hand, say) has no agent that takes jobs.
 */
export interface AgentPresence {
  readonly status: 'up' | 'lost' | 'unknown';
  readonly agentVersion: string | null;
  readonly lastSeenAt: string | null;
}

/** Record a new job. `jobId` (a uuid) and `requestedAt` come from the caller: the domain has no clock. */
export interface RequestJob {
  readonly type: 'RequestJob';
  readonly jobId: string;
  readonly hostname: string;
  /** Checked here: unknown kinds are JOB.INVALID. */
  readonly kind: unknown;
  readonly params: unknown;
  /** 1–86400; absent: the kind's default. */
  readonly timeoutSeconds?: unknown;
  readonly requestedAt: string;
  /** The host's agent as the ledger knows it; when given, a job for an agent that is lost or never ran is refused (JOB.AGENT_UNAVAILABLE). */
  readonly agent?: AgentPresence;
  /** The workflow attempt that asks for it: recorded, and carried on the job's result so the result routes back. */
  readonly origin?: JobOrigin;
  /**
   * A long poll of the host's agent is waiting for work: the job is
   * recorded dispatched to it (attempt 1) in the same append as its
   * request, and the poll answers with it (docs/agent-protocol.md, "A job
   * handed to a waiting poll").
   */
  readonly handedTo?: { readonly agentBoot: string | null; readonly at: string };
}

/** The host's agent takes the job. `agentBoot` null: the poll named no boot, so it never takes a job back. */
export interface DispatchJob {
  readonly type: 'DispatchJob';
  readonly jobId: string;
  readonly hostname: string;
  readonly agentBoot: string | null;
  readonly dispatchedAt: string;
}

export interface CompleteJob {
  readonly type: 'CompleteJob';
  readonly jobId: string;
  readonly evidence: unknown;
  readonly completedAt: string;
}

export interface FailJob {
  readonly type: 'FailJob';
  readonly jobId: string;
  readonly code: unknown;
  readonly reason: unknown;
  readonly evidence: unknown;
  readonly failedAt: string;
}

/** The sweeper's: fail the job with JOB.TIMED_OUT if it is unfinished at `now` and its deadline has passed. */
export interface TimeOutJob {
  readonly type: 'TimeOutJob';
  readonly jobId: string;
  readonly now: string;
}

export type JobCommand = RequestJob | DispatchJob | CompleteJob | FailJob | TimeOutJob;
