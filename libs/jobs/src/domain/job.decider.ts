import { ConflictError, type Decider, ForbiddenError, isUuid } from '@ledger/kernel';
import type { AgentPresence, CompleteJob, DispatchJob, FailJob, JobCommand, RequestJob, TimeOutJob } from './job.commands';
import { JobErrorCodes, JobInvalidError, jobNotFound } from './job.errors';
import type { JobEvent } from './job.events';
import { defaultTimeoutSeconds, isJobKind, JOB_KINDS, MAX_TIMEOUT_SECONDS, MIN_TIMEOUT_SECONDS } from './job-kinds';
import { validateJobParams } from './job-params';
import { evidenceOf, failureCodeOf, failureReasonOf } from './job-result';
import { evolveJob, initialJobState, isFinished, jobDeadline, type JobState, type KnownJob } from './job.state';

/**
 * One job (stream `job-<jobId>`): requested → dispatched (attempt n) →
 * completed | failed. A job is finished once: every later result, dispatch
 * or timeout is refused or ignored, never recorded.
 */
export const jobDecider: Decider<JobCommand, JobState, JobEvent> = {
  decide(command, state) {
    switch (command.type) {
      case 'RequestJob':
        return requestJob(command, state);
      case 'DispatchJob':
        return dispatchJob(command, known(state, command.jobId));
      case 'CompleteJob':
        return completeJob(command, unfinished(state, command.jobId));
      case 'FailJob':
        return failJob(command, unfinished(state, command.jobId));
      case 'TimeOutJob':
        return timeOutJob(command, known(state, command.jobId));
      default:
        throw new JobInvalidError('type', 'is not a job command', (command as { type?: unknown }).type);
    }
  },
  evolve: evolveJob,
  initialState: initialJobState,
};

/** A repeated request for the same job id appends nothing: job ids are the caller's, so a retry is safe. */
function requestJob(command: RequestJob, state: JobState): JobEvent[] {
  if (!isUuid(command.jobId)) throw new JobInvalidError('jobId', 'must be a uuid', command.jobId);
  if (!isJobKind(command.kind)) throw new JobInvalidError('kind', `must be one of ${JOB_KINDS.join(', ')}`, command.kind);
  const params = validateJobParams(command.kind, command.params);
  const timeoutSeconds = command.timeoutSeconds ?? defaultTimeoutSeconds(command.kind);
  if (typeof timeoutSeconds !== 'number' || !Number.isInteger(timeoutSeconds) || timeoutSeconds < MIN_TIMEOUT_SECONDS || timeoutSeconds > MAX_TIMEOUT_SECONDS) {
    throw new JobInvalidError('timeoutSeconds', `must be an integer from ${MIN_TIMEOUT_SECONDS} to ${MAX_TIMEOUT_SECONDS}`, timeoutSeconds);
  }
  if (state.status !== 'none') return [];
  if (command.agent) assertAgentAvailable(command.hostname, command.agent);
  const { hostname, requestedAt, origin, handedTo } = command;
  const jobId = command.jobId.toLowerCase();
  const requested: JobEvent = { type: 'jobs.JobRequested', data: { jobId, hostname, kind: command.kind, params, timeoutSeconds, requestedAt, ...(origin ? { origin } : {}) } };
  if (!handedTo) return [requested];
  return [requested, { type: 'jobs.JobDispatched', data: { jobId, hostname, attempt: 1, agentBoot: handedTo.agentBoot, dispatchedAt: handedTo.at } }];
}

/**
 * A job is only worth recording when an agent will take it: one that is
 * lost, or never ran (the host is known from reports alone), would leave
 * it queued until it times out. Refused at once instead, saying which:
 * `agentStatus` is the agent's (`lost`, `never-seen`), not the host's,
 * which reports alone keep `up`.
 */
function assertAgentAvailable(hostname: string, agent: AgentPresence): void {
  if (agent.status === 'lost') {
    throw agentUnavailable(hostname, agent, 'lost', `the agent of ${hostname} is lost (last seen ${agent.lastSeenAt ?? 'never'}): a job would wait for it and time out; ask again once it is back`);
  }
  if (agent.agentVersion === null) {
    throw agentUnavailable(
      hostname,
      agent,
      'never-seen',
      `no agent has run on ${hostname}: the ledger has its reports but never a heartbeat; start the agent there (apps/agent/README.md) and ask again`,
    );
  }
}

const agentUnavailable = (hostname: string, agent: AgentPresence, agentStatus: 'lost' | 'never-seen', detail: string) =>
  new ConflictError(JobErrorCodes.AGENT_UNAVAILABLE, detail, { hostname, agentStatus, lastSeenAt: agent.lastSeenAt });

/**
 * First dispatch is attempt 1. A job already dispatched goes out again
 * (attempt + 1) only to a poll that names another agent boot: the agent
 * restarted and lost what it held. The same boot, or none, takes nothing.
 */
function dispatchJob(command: DispatchJob, job: KnownJob): JobEvent[] {
  if (command.hostname !== job.hostname) {
    throw new ForbiddenError(JobErrorCodes.WRONG_HOST, `job ${job.jobId} belongs to ${job.hostname}, not ${command.hostname}`, {
      jobId: job.jobId,
      hostname: job.hostname,
    });
  }
  if (isFinished(job)) throw alreadyFinished(job);
  if (job.status === 'dispatched' && (command.agentBoot === null || command.agentBoot === job.agentBoot)) return [];
  const { jobId, hostname } = job;
  return [{ type: 'jobs.JobDispatched', data: { jobId, hostname, attempt: job.attempt + 1, agentBoot: command.agentBoot, dispatchedAt: command.dispatchedAt } }];
}

/** Results are taken from a requested job too: an operator may settle a job its agent never took. */
function completeJob(command: CompleteJob, job: KnownJob): JobEvent[] {
  return [{ type: 'jobs.JobCompleted', data: { jobId: job.jobId, evidence: evidenceOf(command.evidence), completedAt: command.completedAt, ...originOf(job) } }];
}

function failJob(command: FailJob, job: KnownJob): JobEvent[] {
  const code = failureCodeOf(command.code);
  const reason = failureReasonOf(command.reason);
  return [{ type: 'jobs.JobFailed', data: { jobId: job.jobId, code, reason, evidence: evidenceOf(command.evidence), failedAt: command.failedAt, ...originOf(job) } }];
}

/** Nothing when the job finished or its deadline is still ahead: the sweeper reads a projection that may lag. */
function timeOutJob(command: TimeOutJob, job: KnownJob): JobEvent[] {
  if (isFinished(job) || Date.parse(command.now) < jobDeadline(job)) return [];
  const waitedFor = job.status === 'requested' ? 'the agent never took it' : `dispatched (attempt ${job.attempt}), no result`;
  return [
    {
      type: 'jobs.JobFailed',
      data: {
        jobId: job.jobId,
        code: JobErrorCodes.TIMED_OUT,
        reason: `no result within ${job.timeoutSeconds} s: ${waitedFor}`,
        evidence: { lastState: job.status, attempt: job.attempt },
        failedAt: command.now,
        ...originOf(job),
      },
    },
  ];
}

/** The request's origin, for the result: a workflow routes it back to the attempt that asked. */
const originOf = (job: KnownJob) => (job.origin ? { origin: job.origin } : {});

function known(state: JobState, jobId: string): KnownJob {
  if (state.status === 'none') throw jobNotFound(jobId);
  return state;
}

function unfinished(state: JobState, jobId: string): KnownJob {
  const job = known(state, jobId);
  if (isFinished(job)) throw alreadyFinished(job);
  return job;
}

const alreadyFinished = (job: KnownJob) =>
  new ConflictError(JobErrorCodes.ALREADY_FINISHED, `job ${job.jobId} is ${job.status} already${job.failureCode ? ` (${job.failureCode})` : ''}`, {
    jobId: job.jobId,
    state: job.status,
    ...(job.failureCode ? { failureCode: job.failureCode } : {}),
  });
