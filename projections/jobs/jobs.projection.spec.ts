import type { RecordedEvent } from '@ledger/eventstore';
import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { everyBatchTwice, oneBatch, onePerBatch } from '@ledger/processing/testing';
import { jobsProjection } from './jobs.projection';
import { JobQueries } from './jobs.queries';
import { applyBatches, buildJobs, snapshotJobs } from './testing/jobs-batches';
import { at, recordJobsHistory } from './testing/jobs-history';
import { BOOT_B, id, jobsScenario, recap, vfs } from './testing/jobs-scenario';

describe('jobsProjection (SQLite :memory:)', () => {
  let db: SqlDatabase;
  let events: RecordedEvent[];
  let queries: JobQueries;

  beforeAll(async () => {
    events = await recordJobsHistory(jobsScenario);
  });
  beforeEach(async () => {
    db = await openSqliteSqlDatabase({ file: ':memory:' });
    queries = new JobQueries(db);
  });
  afterEach(() => db.close());

  it('reads job events from job streams and driver facts from host streams', () => {
    expect(jobsProjection).toMatchObject({ name: 'jobs', version: 1, filter: { categories: ['job', 'host'] } });
    expect([...jobsProjection.handles].sort()).toEqual([
      'inventory.DriverFailed',
      'inventory.DriverInstalled',
      'inventory.DriverUninstalled',
      'jobs.JobCompleted',
      'jobs.JobDispatched',
      'jobs.JobFailed',
      'jobs.JobRequested',
    ]);
    expect(events.filter((event) => event.stream.startsWith('host-')).map((event) => event.type)).toEqual([
      'inventory.DriverInstalled',
      'inventory.DriverFailed',
      'inventory.DriverFailed',
      'inventory.DriverInstalled',
      'inventory.DriverUninstalled',
    ]);
  });

  it('serves each job with its state, attempt, deadline and evidence', async () => {
    await applyBatches(db, oneBatch(events));
    expect(await queries.getJob(id(1).toUpperCase())).toEqual({
      jobId: id(1),
      hostname: 'compute-1',
      kind: 'configure-vfs',
      params: vfs,
      timeoutSeconds: 120,
      state: 'completed',
      attempt: 1,
      requestedAt: at(0),
      deadline: at(120),
      dispatchedAt: at(1),
      finishedAt: at(2),
      code: null,
      reason: null,
      evidence: { numVfs: 4 },
      position: events.find((event) => event.stream === `job-${id(1)}`)!.position,
    });
    expect(await queries.getJob(id(3))).toMatchObject({ state: 'failed', code: 'DRIVER.PLAYBOOK_FAILED', reason: 'apt failed', attempt: 1 });
    expect(await queries.getJob(id(5))).toMatchObject({ state: 'dispatched', attempt: 2, timeoutSeconds: 600, deadline: at(610) });
    expect(await queries.getJob(id(6))).toMatchObject({ state: 'failed', code: 'JOB.TIMED_OUT', evidence: { lastState: 'requested', attempt: 0 } });
    expect(await queries.getJob(id(99))).toBeUndefined();
  });

  it('lists jobs newest first, by host, state and kind, page by page', async () => {
    await applyBatches(db, oneBatch(events));
    const ids = (page: { items: { jobId: string }[] }) => page.items.map((job) => job.jobId);
    expect(ids(await queries.listJobs())).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1].map(id));
    expect(ids(await queries.listJobs({ hostname: 'compute-2' }))).toEqual([id(6), id(4)]);
    expect(ids(await queries.listJobs({ state: 'failed' }))).toEqual([id(6), id(3)]);
    expect(ids(await queries.listJobs({ kind: 'install-driver', hostname: 'compute-1' }))).toEqual([id(7), id(2)]);
    const first = await queries.listJobs({ limit: 4 });
    expect(ids(first)).toEqual([9, 8, 7, 6].map(id));
    const second = await queries.listJobs({ limit: 4, cursor: first.nextCursor! });
    expect(ids(second)).toEqual([5, 4, 3, 2].map(id));
    const last = await queries.listJobs({ limit: 4, cursor: second.nextCursor! });
    expect(last).toEqual({ items: [expect.objectContaining({ jobId: id(1) })], nextCursor: null });
    await expect(queries.listJobs({ limit: 0 })).rejects.toMatchObject({ code: 'JOB.INVALID', facts: { path: 'limit' } });
    await expect(queries.listJobs({ cursor: 'bm9wZQ' })).rejects.toMatchObject({ code: 'JOB.INVALID', facts: { path: 'cursor' } });
  });

  it('answers what a poll may take, what waits, what is due and what was requested since', async () => {
    await applyBatches(db, oneBatch(events));
    expect(await queries.offerable('compute-1', null, at(30))).toEqual([id(9)]);
    expect(await queries.offerable('compute-1', BOOT_B, at(30))).toEqual([id(9)]);
    expect(await queries.offerable('compute-1', id(903), at(30))).toEqual([id(5), id(9)]);
    expect(await queries.offerable('compute-1', id(903), at(30), 1)).toEqual([id(5)]);
    expect(await queries.offerable('compute-1', null, at(143))).toEqual([]);
    expect(await queries.offerable('compute-2', null, at(30))).toEqual([id(4)]);
    expect(await queries.countWaitingPerHost(new Date(at(30)))).toEqual(new Map([['compute-1', 1], ['compute-2', 1]]));
    expect(await queries.countWaitingPerHost(new Date(at(143)))).toEqual(new Map([['compute-2', 1]]));
    expect(await queries.nextDeadline()).toBe(at(143));
    expect(await queries.dueForTimeout(at(142), 10)).toEqual([]);
    expect(await queries.dueForTimeout(at(700), 10)).toEqual([id(9), id(4), id(5)]);
    const positionOf = (n: number) => events.find((event) => event.stream === `job-${id(n)}`)!.position;
    expect(await queries.lastRequestedPosition()).toBe(positionOf(9));
    expect(await queries.requestedAfter(positionOf(7), 10)).toEqual([
      { hostname: 'compute-1', position: positionOf(8) },
      { hostname: 'compute-1', position: positionOf(9) },
    ]);
  });

  it("keeps each host's drivers from the driver facts", async () => {
    await applyBatches(db, oneBatch(events));
    expect(await queries.listHostDrivers('compute-1')).toEqual([
      {
        driver: 'nvidia-gpu',
        status: 'installed',
        version: '550.54.15',
        installedAt: expect.any(String),
        recap: { ...recap, failed: 1 },
        lastJobId: id(3),
        lastFailure: { operation: 'update', reason: 'DRIVER.PLAYBOOK_FAILED: apt failed', failedAt: expect.any(String) },
        updatedAt: expect.any(String),
      },
    ]);
    expect(await queries.listHostDrivers('compute-2')).toEqual([
      expect.objectContaining({ driver: 'intel-qat', status: 'failed', version: null, recap: null, lastJobId: id(6) }),
    ]);
  });

  it('builds the same tables one event per batch, in one batch, every batch twice, and split anywhere', async () => {
    const expected = await buildJobs(onePerBatch(events));
    expect(expected.jobs).toHaveLength(9);
    expect(await buildJobs(oneBatch(events))).toEqual(expected);
    expect(await buildJobs(everyBatchTwice(oneBatch(events)))).toEqual(expected);
    expect(await buildJobs(everyBatchTwice(onePerBatch(events)))).toEqual(expected);
    for (let split = 1; split < events.length; split++) {
      expect(await buildJobs([events.slice(0, split), events.slice(split)])).toEqual(expected);
      expect(await buildJobs([events.slice(0, split + 1), events.slice(split - 1)])).toEqual(expected);
    }
  });

  it('empties its tables on reset', async () => {
    await applyBatches(db, oneBatch(events));
    await db.transaction((tx) => jobsProjection.reset(tx));
    expect(Object.values(await snapshotJobs(db)).every((rows) => rows.length === 0)).toBe(true);
  });
});
