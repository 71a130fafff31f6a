import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LedgerCallError } from '../ledger-call.error';
import type { JobOffer, JobResult } from '../protocol';
import { ResultOutbox } from '../result-outbox';
import { collectingLogger } from '../testing/fake-driver';
import { eventually, ManualTimers } from '../testing/manual-timers';
import { JobLoop } from './job-loop';

/** Event-loop turns to wait for what waits on the disk (each save syncs a file and its directory off the loop). */
const DISK_TURNS = 1_000_000;
const offer = (jobId: string): JobOffer => ({ jobId, kind: 'discover', params: {}, timeoutSeconds: 60, requestedAt: '2026-01-01T00:00:00Z' });

describe('JobLoop', () => {
  let stateDir: string;
  let outbox: ResultOutbox;
  let timers: ManualTimers;
  let polls: (JobOffer[] | LedgerCallError)[];
  let pollCount: number;
  let ran: string[];
  let wakes: number;
  /** What each result's send saw of its save: whether the file was there as the send began, and once the save ended. */
  let sends: { jobId: string; savedWhenSent: boolean; saved: boolean }[];
  let finishJob: (() => void) | undefined;
  let loop: JobLoop;
  const stop = () => new AbortController();

  beforeEach(() => {
    stateDir = mkdtempSync(join(tmpdir(), 'agent-job-loop-'));
    outbox = new ResultOutbox(stateDir, collectingLogger());
    timers = new ManualTimers();
    polls = [];
    pollCount = 0;
    ran = [];
    wakes = 0;
    sends = [];
    finishJob = undefined;
    const client = {
      nextJobs: (_wait: number, signal?: AbortSignal) => {
        pollCount++;
        const next = polls.shift();
        if (next instanceof LedgerCallError) return Promise.reject(next);
        if (next) return Promise.resolve(next);
        // An idle long poll: pending until the agent stops.
        return new Promise<JobOffer[]>((_, reject) => signal?.addEventListener('abort', () => reject(new LedgerCallError('unreachable', 'GET /jobs/next', 'cancelled'))));
      },
    };
    const runner = {
      run: async (job: JobOffer): Promise<JobResult> => {
        ran.push(job.jobId);
        if (job.jobId === 'slow') await new Promise<void>((resolve) => (finishJob = resolve));
        return { outcome: 'completed', evidence: { devices: 1 } };
      },
    };
    const deliver = (jobId: string, _result: JobResult, saved: Promise<void>) => {
      const send = { jobId, savedWhenSent: outbox.has(jobId), saved: false };
      sends.push(send);
      void saved.then(() => (send.saved = true));
    };
    loop = new JobLoop({ client, runner, outbox, deliver, onResult: () => wakes++, timers, logger: collectingLogger(), random: () => 0.5 });
  });
  afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

  it('runs the offered jobs in order, sends each result as it saves it, and polls again once saved', async () => {
    polls = [[offer('j1'), offer('j2')]];
    const controller = stop();
    const running = loop.run(controller.signal);
    await eventually(() => pollCount === 2, DISK_TURNS);
    expect(ran).toEqual(['j1', 'j2']);
    expect(outbox.pending().map((pending) => pending.jobId)).toEqual(['j1', 'j2']);
    expect(sends).toEqual([
      { jobId: 'j1', savedWhenSent: false, saved: true },
      { jobId: 'j2', savedWhenSent: false, saved: true },
    ]);
    expect(wakes).toBe(0);
    controller.abort();
    await running;
  });

  it('does not run again a job whose result is already saved (offered again after a restart)', async () => {
    await outbox.save('j1', { outcome: 'completed', evidence: { devices: 1 } }, new Date());
    polls = [[offer('j1')]];
    const controller = stop();
    const running = loop.run(controller.signal);
    await eventually(() => pollCount === 2);
    expect(ran).toEqual([]);
    expect(wakes).toBe(1);
    controller.abort();
    await running;
  });

  it('does not run again a job whose result it delivered while the poll that offers it again was answered', async () => {
    await outbox.save('j1', { outcome: 'failed', code: 'DRIVER.INJECTED_FAILURE', reason: 'simulated carve failure', evidence: {} }, new Date());
    outbox.remove('j1');
    polls = [[offer('j1')]];
    const controller = stop();
    const running = loop.run(controller.signal);
    await eventually(() => pollCount === 2);
    expect(ran).toEqual([]);
    expect(wakes).toBe(0);
    controller.abort();
    await running;
  });

  it('backs off while the ledger is unreachable, and polls at once when told jobs are waiting', async () => {
    const down = () => new LedgerCallError('unreachable', 'GET /jobs/next', 'ECONNREFUSED');
    polls = [down(), down(), [offer('j1')]];
    const controller = stop();
    const running = loop.run(controller.signal);
    await eventually(() => timers.sleeping === 1);
    timers.advance(1_000);
    await eventually(() => pollCount === 2 && timers.sleeping === 1);
    expect(timers.requested).toEqual([1_000, 2_000]);
    loop.pollNow();
    await eventually(() => ran.length === 1);
    expect(timers.now() - Date.parse('2026-01-01T00:00:00Z')).toBe(1_000);
    controller.abort();
    await running;
  });

  it('lets the job in hand finish and saves its result when stopped', async () => {
    polls = [[offer('slow'), offer('never')]];
    const controller = stop();
    const running = loop.run(controller.signal);
    await eventually(() => finishJob !== undefined);
    controller.abort();
    finishJob!();
    await running;
    expect(ran).toEqual(['slow']);
    expect(outbox.pending().map((pending) => pending.jobId)).toEqual(['slow']);
  });
});
