import { describeWithService, postgresUnavailable } from '../../test/support/services';
import { everyBatchTwice, inBatchesOf, onePerBatch, postgresTestDatabases, type TestDatabases } from '@ledger/processing/testing';
import { JobQueries } from './jobs.queries';
import { applyBatches, buildJobs, snapshotJobs } from './testing/jobs-batches';
import { at, recordJobsHistory } from './testing/jobs-history';
import { id, jobsScenario } from './testing/jobs-scenario';

describeWithService('PostgreSQL', postgresUnavailable())('jobsProjection (PostgreSQL)', () => {
  let databases: TestDatabases;

  beforeAll(() => {
    databases = postgresTestDatabases();
  });
  afterAll(() => databases.dispose());

  it('builds exactly the tables SQLite builds, also when every batch arrives twice, and answers the same queries', async () => {
    const events = await recordJobsHistory(jobsScenario);
    const expected = await buildJobs(onePerBatch(events));
    const postgres = await databases.open('jobs');
    await applyBatches(postgres, everyBatchTwice(inBatchesOf(4, events)));
    expect(await snapshotJobs(postgres)).toEqual(expected);

    const queries = new JobQueries(postgres);
    expect(await queries.getJob(id(5))).toMatchObject({ state: 'dispatched', attempt: 2, position: expect.any(Number) });
    expect((await queries.listJobs({ limit: 2 })).items.map((job) => job.jobId)).toEqual([id(9), id(8)]);
    expect(await queries.offerable('compute-1', id(903), at(30))).toEqual([id(5), id(9)]);
    expect(await queries.countWaitingPerHost(new Date(at(30)))).toEqual(new Map([['compute-1', 1], ['compute-2', 1]]));
    expect(await queries.dueForTimeout(at(700), 10)).toEqual([id(9), id(4), id(5)]);
    expect(await queries.nextDeadline()).toBe(at(143));
    expect(await queries.lastRequestedPosition()).toBe(events.find((event) => event.stream === `job-${id(9)}`)!.position);
    expect((await queries.listHostDrivers('compute-1')).map((driver) => [driver.driver, driver.status, driver.version])).toEqual([['nvidia-gpu', 'installed', '550.54.15']]);
  });
});
