import type { JobView } from '@ledger/projections/jobs';
import { CliError } from './cli-error';
import { followJob, SWEEPER_GRACE_MS } from './job-follower';

const JOB_ID = '0193a1b2-0000-7000-8000-000000000001';

const view = (state: JobView['state'], extra: Partial<JobView> = {}): JobView => ({
  jobId: JOB_ID,
  hostname: 'compute-1',
  kind: 'install-driver',
  params: { driver: 'simulated' },
  timeoutSeconds: 60,
  state,
  attempt: state === 'requested' ? 0 : 1,
  requestedAt: '2026-01-01T00:00:00.000Z',
  deadline: '2026-01-01T00:01:00.000Z',
  dispatchedAt: null,
  finishedAt: null,
  code: null,
  reason: null,
  evidence: null,
  position: 7,
  ...extra,
});

/** A client answering the given views in turn (the last one again when they run out), and a clock that the sleeps advance. */
function fixture(views: JobView[]) {
  const calls: { path: string; headers?: Readonly<Record<string, string>> }[] = [];
  const sleeps: number[] = [];
  let clock = 0;
  const client = {
    request: async <T>(_method: string, path: string, _body?: unknown, options?: { headers?: Readonly<Record<string, string>> }) => {
      calls.push({ path, headers: options?.headers });
      return views[Math.min(calls.length - 1, views.length - 1)] as T;
    },
  };
  const options = {
    sleep: async (ms: number) => {
      sleeps.push(ms);
      clock += ms;
    },
    now: () => clock,
  };
  return { client, options, calls, sleeps };
}

describe('followJob', () => {
  it('polls the job, reading at least its request position, until it is finished', async () => {
    const { client, options, calls } = fixture([view('requested'), view('dispatched'), view('dispatched'), view('completed', { evidence: { recap: { ok: 1 } } })]);
    const seen: string[] = [];
    const job = await followJob(client, { jobId: JOB_ID, position: 7 }, { ...options, onPoll: (polled) => seen.push(polled.state) });
    expect(job).toMatchObject({ state: 'completed', evidence: { recap: { ok: 1 } } });
    expect(seen).toEqual(['requested', 'dispatched', 'dispatched', 'completed']);
    expect(calls.every((call) => call.path === `/api/v1/jobs/${JOB_ID}` && call.headers?.['x-ledger-min-position'] === '7')).toBe(true);
  });

  it('returns a failed job as it is: whether that is an error is for the command to say', async () => {
    const { client, options } = fixture([view('failed', { code: 'JOB.TIMED_OUT', reason: 'no result' })]);
    await expect(followJob(client, { jobId: JOB_ID, position: 7 }, options)).resolves.toMatchObject({ state: 'failed', code: 'JOB.TIMED_OUT' });
  });

  it('backs off while nothing changes, up to 3 s, and polls soon again after a change', async () => {
    const { client, options, sleeps } = fixture([...Array(10).fill(view('dispatched')), view('requested'), view('completed')]);
    await followJob(client, { jobId: JOB_ID, position: 7 }, options);
    expect(sleeps.slice(0, 10).map(Math.round)).toEqual([200, 300, 450, 675, 1013, 1519, 2278, 3000, 3000, 3000]);
    expect(sleeps[10]).toBe(200);
  });

  it("gives up with exit code 1 once the job outlives its timeout by the sweeper's grace", async () => {
    const { client, options, calls } = fixture([view('dispatched', { timeoutSeconds: 5 })]);
    const error = await followJob(client, { jobId: JOB_ID, position: 7 }, options).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CliError);
    expect(error).toMatchObject({ exitCode: 1, message: expect.stringContaining('still dispatched 30 s past its 5 s timeout') });
    // Polled about (timeout + grace) / 3 s times: no busy loop.
    expect(calls.length).toBeLessThan((5_000 + SWEEPER_GRACE_MS) / 3000 + 10);
  });
});
