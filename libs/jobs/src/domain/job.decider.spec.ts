import { deciderSpec } from '@ledger/eventstore/testing';
import type { DispatchJob, RequestJob } from './job.commands';
import { jobDecider } from './job.decider';
import type { JobEvent } from './job.events';

const spec = deciderSpec(jobDecider);
const JOB = '0196b3c2-0000-7000-8000-0000000000aa';
const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
const BOOT_1 = '0196b3c2-0000-7000-8000-00000000b001';
const BOOT_2 = '0196b3c2-0000-7000-8000-00000000b002';
const AT = '2026-03-01T10:00:00.000Z';
const later = (seconds: number) => new Date(Date.parse(AT) + seconds * 1000).toISOString();

const request: RequestJob = {
  type: 'RequestJob',
  jobId: JOB.toUpperCase(),
  hostname: 'compute-1',
  kind: 'configure-vfs',
  params: { deviceUuid: DEVICE.toUpperCase(), pciAddress: '0000:5E:00.0', numVfs: 4 },
  requestedAt: AT,
};
const requested: JobEvent = {
  type: 'jobs.JobRequested',
  data: {
    jobId: JOB,
    hostname: 'compute-1',
    kind: 'configure-vfs',
    params: { deviceUuid: DEVICE, pciAddress: '0000:5e:00.0', numVfs: 4 },
    timeoutSeconds: 120,
    requestedAt: AT,
  },
};
const dispatch = (agentBoot: string | null, seconds = 1): DispatchJob => ({
  type: 'DispatchJob',
  jobId: JOB,
  hostname: 'compute-1',
  agentBoot,
  dispatchedAt: later(seconds),
});
const dispatched = (attempt: number, agentBoot: string | null, seconds = 1): JobEvent => ({
  type: 'jobs.JobDispatched',
  data: { jobId: JOB, hostname: 'compute-1', attempt, agentBoot, dispatchedAt: later(seconds) },
});
const completed: JobEvent = { type: 'jobs.JobCompleted', data: { jobId: JOB, evidence: { numVfs: 4 }, completedAt: later(5) } };
const failed: JobEvent = {
  type: 'jobs.JobFailed',
  data: { jobId: JOB, code: 'DEVICE.BUSY', reason: 'sriov_numvfs is busy', evidence: { numVfs: 0 }, failedAt: later(5) },
};

describe('jobDecider', () => {
  describe('RequestJob', () => {
    it('records the request with normalised params and the kind default timeout, once per job id', () => {
      spec.given([]).when(request).then([requested]);
      spec.given([requested]).when(request).then([]);
    });

    it('takes a timeout from 1 s to a day, and defaults per kind', () => {
      const [event] = spec.given([]).when({ ...request, timeoutSeconds: 86_400 }).events();
      expect(event.data).toMatchObject({ timeoutSeconds: 86_400 });
      const timeoutOf = (kind: string, params: unknown) =>
        (spec.given([]).when({ ...request, kind, params }).events()[0].data as { timeoutSeconds: number }).timeoutSeconds;
      expect(timeoutOf('discover', {})).toBe(120);
      expect(timeoutOf('install-driver', { driver: 'nvidia-gpu' })).toBe(1800);
      expect(timeoutOf('program', { deviceUuid: DEVICE, deployableUuid: DEVICE, pciAddress: '0000:5e:00.0', image: { imageUuid: DEVICE } })).toBe(600);
      for (const timeoutSeconds of [0, 86_401, 1.5, '60']) {
        spec.given([]).when({ ...request, timeoutSeconds }).thenThrows('JOB.INVALID', { path: 'timeoutSeconds' });
      }
    });

    it('refuses an unknown kind, bad params and a job id that is not a uuid with 400 JOB.INVALID naming the path', () => {
      expect(spec.given([]).when({ ...request, kind: 'reboot' }).thenThrows('JOB.INVALID', { path: 'kind' }).status).toBe(400);
      spec.given([]).when({ ...request, params: { ...(request.params as object), numVfs: 257 } }).thenThrows('JOB.INVALID', { path: 'params.numVfs' });
      spec.given([]).when({ ...request, jobId: 'job-1' }).thenThrows('JOB.INVALID', { path: 'jobId' });
    });

    it('records a job for an agent that is up, and refuses one for an agent that is lost or never ran with 409 JOB.AGENT_UNAVAILABLE', () => {
      const up = { status: 'up', agentVersion: '0.1.0', lastSeenAt: AT } as const;
      spec.given([]).when({ ...request, agent: up }).then([requested]);

      const lost = spec.given([]).when({ ...request, agent: { ...up, status: 'lost' } }).thenThrows('JOB.AGENT_UNAVAILABLE', { hostname: 'compute-1', agentStatus: 'lost', lastSeenAt: AT });
      expect([lost.status, lost.message]).toEqual([409, `the agent of compute-1 is lost (last seen ${AT}): a job would wait for it and time out; ask again once it is back`]);
      // Reported by hand (curl): seen by its report, but no agent ever sent a heartbeat.
      // Its status says so, as the detail does: not the host's `up`, which its reports alone earn.
      const neverRan = spec.given([]).when({ ...request, agent: { status: 'up', agentVersion: null, lastSeenAt: AT } }).thenThrows('JOB.AGENT_UNAVAILABLE', { hostname: 'compute-1', agentStatus: 'never-seen' });
      expect(neverRan.message).toMatch(/^no agent has run on compute-1: the ledger has its reports but never a heartbeat/);
      // Bad input is still the first thing said.
      spec.given([]).when({ ...request, kind: 'reboot', agent: { ...up, status: 'lost' } }).thenThrows('JOB.INVALID', { path: 'kind' });
    });
  });

  describe('RequestJob handed to a waiting poll', () => {
    it('records the request and its dispatch to that poll as attempt 1, together; a repeat records neither', () => {
      const handed = { ...request, handedTo: { agentBoot: BOOT_1, at: later(0) } };
      spec.given([]).when(handed).then([requested, dispatched(1, BOOT_1, 0)]);
      spec.given([requested, dispatched(1, BOOT_1, 0)]).when(handed).then([]);
      spec.given([]).when({ ...handed, handedTo: { agentBoot: null, at: later(0) } }).then([requested, dispatched(1, null, 0)]);
    });

    it('refuses it as any request: nothing is dispatched for an agent that is lost', () => {
      const lost = { status: 'lost', agentVersion: '0.1.0', lastSeenAt: AT } as const;
      spec.given([]).when({ ...request, agent: lost, handedTo: { agentBoot: BOOT_1, at: later(0) } }).thenThrows('JOB.AGENT_UNAVAILABLE');
    });
  });

  describe('DispatchJob', () => {
    it('dispatches a requested job as attempt 1', () => {
      spec.given([requested]).when(dispatch(BOOT_1)).then([dispatched(1, BOOT_1)]);
      spec.given([requested]).when(dispatch(null)).then([dispatched(1, null)]);
    });

    it('gives a dispatched job again, as the next attempt, only to another agent boot', () => {
      spec.given([requested, dispatched(1, BOOT_1)]).when(dispatch(BOOT_2, 9)).then([dispatched(2, BOOT_2, 9)]);
      spec.given([requested, dispatched(1, null)]).when(dispatch(BOOT_2, 9)).then([dispatched(2, BOOT_2, 9)]);
      spec.given([requested, dispatched(1, BOOT_1)]).when(dispatch(BOOT_1, 9)).then([]);
      spec.given([requested, dispatched(1, BOOT_1)]).when(dispatch(null, 9)).then([]);
    });

    it('refuses a finished job with 409, an unknown one with 404, and another host with 403', () => {
      expect(spec.given([requested, dispatched(1, BOOT_1), completed]).when(dispatch(BOOT_2)).thenThrows('JOB.ALREADY_FINISHED', { state: 'completed' }).status).toBe(409);
      expect(spec.given([]).when(dispatch(BOOT_1)).thenThrows('JOB.NOT_FOUND', { jobId: JOB }).status).toBe(404);
      expect(spec.given([requested]).when({ ...dispatch(BOOT_1), hostname: 'compute-2' }).thenThrows('JOB.WRONG_HOST').status).toBe(403);
    });
  });

  describe('CompleteJob and FailJob', () => {
    const complete = { type: 'CompleteJob', jobId: JOB, evidence: { numVfs: 4 }, completedAt: later(5) } as const;
    const fail = { type: 'FailJob', jobId: JOB, code: 'DEVICE.BUSY', reason: 'sriov_numvfs is busy', evidence: { numVfs: 0 }, failedAt: later(5) } as const;

    it('completes or fails a dispatched job with the evidence', () => {
      spec.given([requested, dispatched(1, BOOT_1)]).when(complete).then([completed]);
      spec.given([requested, dispatched(1, BOOT_1)]).when(fail).then([failed]);
    });

    it('settles a job its agent never took (an operator closing it)', () => {
      spec.given([requested]).when(fail).then([failed]);
    });

    it('gives a failure without code or reason the defaults', () => {
      const [event] = spec.given([requested]).when({ ...fail, code: undefined, reason: undefined }).events();
      expect(event.data).toMatchObject({ code: 'JOB.FAILED', reason: 'the agent reported a failure' });
    });

    it('refuses a result for a finished job with 409, whichever way it finished', () => {
      for (const finished of [completed, failed]) {
        spec.given([requested, dispatched(1, BOOT_1), finished]).when(complete).thenThrows('JOB.ALREADY_FINISHED');
        spec.given([requested, dispatched(1, BOOT_1), finished]).when(fail).thenThrows('JOB.ALREADY_FINISHED');
      }
      spec.given([]).when(complete).thenThrows('JOB.NOT_FOUND');
    });

    it('refuses evidence that is not an object or exceeds 64 KiB, and a malformed code or reason', () => {
      const given = spec.given([requested, dispatched(1, BOOT_1)]);
      for (const evidence of [null, [], 'ok', undefined]) given.when({ ...complete, evidence }).thenThrows('JOB.INVALID', { path: 'evidence' });
      given.when({ ...complete, evidence: { log: 'x'.repeat(64 * 1024) } }).thenThrows('JOB.INVALID', { path: 'evidence', limit: 65_536 });
      given.when({ ...complete, evidence: { log: 'x'.repeat(64 * 1024 - 20) } }).events();
      for (const code of ['busy', 'DEVICE..BUSY', 7, 'A'.repeat(65)]) given.when({ ...fail, code }).thenThrows('JOB.INVALID', { path: 'code' });
      for (const reason of ['', 'r'.repeat(1025), 42]) given.when({ ...fail, reason }).thenThrows('JOB.INVALID', { path: 'reason' });
    });
  });

  describe('TimeOutJob', () => {
    const timeOut = (seconds: number) => ({ type: 'TimeOutJob', jobId: JOB, now: later(seconds) }) as const;

    it('fails an unfinished job with JOB.TIMED_OUT once its deadline has passed', () => {
      spec.given([requested]).when(timeOut(120)).then([
        {
          type: 'jobs.JobFailed',
          data: {
            jobId: JOB,
            code: 'JOB.TIMED_OUT',
            reason: 'no result within 120 s: the agent never took it',
            evidence: { lastState: 'requested', attempt: 0 },
            failedAt: later(120),
          },
        },
      ]);
      const [event] = spec.given([requested, dispatched(1, BOOT_1), dispatched(2, BOOT_2)]).when(timeOut(121)).events();
      expect(event.data).toMatchObject({ code: 'JOB.TIMED_OUT', reason: 'no result within 120 s: dispatched (attempt 2), no result' });
    });

    it('does nothing before the deadline or to a finished job, so a stale sweep is harmless', () => {
      spec.given([requested, dispatched(1, BOOT_1)]).when(timeOut(119)).then([]);
      spec.given([requested, dispatched(1, BOOT_1), completed]).when(timeOut(500)).then([]);
      spec.given([requested, failed]).when(timeOut(500)).then([]);
      spec.given([]).when(timeOut(500)).thenThrows('JOB.NOT_FOUND');
    });

    it('makes a timed-out job refuse a late result', () => {
      const [timedOut] = spec.given([requested]).when(timeOut(120)).events();
      spec
        .given([requested, timedOut])
        .when({ type: 'CompleteJob', jobId: JOB, evidence: {}, completedAt: later(130) })
        .thenThrows('JOB.ALREADY_FINISHED', { state: 'failed', failureCode: 'JOB.TIMED_OUT' });
    });
  });

  describe('a workflow’s job (origin)', () => {
    const origin = { workflow: 'demo', workflowId: 'o1', key: 'program/do/1' };
    const fromWorkflow: JobEvent = { ...requested, data: { ...(requested.data as object), origin } } as JobEvent;

    it('records the origin on the request, and asking again for the job id records nothing', () => {
      spec.given([]).when({ ...request, origin }).then([fromWorkflow]);
      spec.given([fromWorkflow]).when({ ...request, origin }).then([]);
    });

    it('carries the origin on the result, whichever way the job finished, the ledger’s timeout included', () => {
      const [done] = spec.given([fromWorkflow]).when({ type: 'CompleteJob', jobId: JOB, evidence: { ok: true }, completedAt: later(5) }).events();
      expect(done.data).toMatchObject({ origin });
      const [failure] = spec.given([fromWorkflow]).when({ type: 'FailJob', jobId: JOB, code: 'X.Y', reason: 'no', evidence: {}, failedAt: later(5) }).events();
      expect(failure.data).toMatchObject({ origin, code: 'X.Y' });
      const [timedOut] = spec.given([fromWorkflow]).when({ type: 'TimeOutJob', jobId: JOB, now: later(120) }).events();
      expect(timedOut.data).toMatchObject({ origin, code: 'JOB.TIMED_OUT' });
      const [plain] = spec.given([requested]).when({ type: 'CompleteJob', jobId: JOB, evidence: {}, completedAt: later(5) }).events();
      expect(plain.data).not.toHaveProperty('origin');
    });
  });
});
