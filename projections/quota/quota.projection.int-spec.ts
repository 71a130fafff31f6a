import { describeWithService, postgresUnavailable } from '../../test/support/services';
import { postgresTestDatabases, type TestDatabases } from '@ledger/processing/testing';
import { QuotaQueries } from './quota.queries';
import { everyBatchTwice, inBatchesOf, onePerBatch } from '@ledger/processing/testing';
import { applyBatches, buildQuota, snapshotQuota } from './testing/quota-batches';
import { quotaCommandMix, recordQuotaHistory } from './testing/quota-history';

describeWithService('PostgreSQL', postgresUnavailable())('quotaProjection (PostgreSQL)', () => {
  let databases: TestDatabases;

  beforeAll(() => {
    databases = postgresTestDatabases();
  });
  afterAll(() => databases.dispose());

  it('builds exactly the tables SQLite builds, also when every batch arrives twice, and answers the same queries', async () => {
    const history = await recordQuotaHistory([
      { type: 'SetQuotaLimits', project: 'p1', limits: { 'capacity:memoryMiB': 2 ** 53 - 1 } },
      ...quotaCommandMix(400),
    ]);
    const expected = await buildQuota(onePerBatch(history.events));
    const postgres = await databases.open('quota');
    await applyBatches(postgres, everyBatchTwice(inBatchesOf(50, history.events)));
    expect(await snapshotQuota(postgres)).toEqual(expected);

    const queries = new QuotaQueries(postgres);
    for (const project of ['p1', 'p2', 'p3']) {
      const truth = await history.authoritative(project);
      expect(await queries.getProject(project)).toEqual({ project, limits: truth.limits, usage: truth.usage });
    }
    expect((await queries.getProject('p1')).limits['capacity:memoryMiB']).toBe(2 ** 53 - 1);
    // The metrics' one query for every project says the same.
    const everyProject = await queries.usageAndLimits();
    for (const project of ['p1', 'p2', 'p3']) {
      const truth = await history.authoritative(project);
      const rows = everyProject.filter((row) => row.project === project);
      expect(Object.fromEntries(rows.filter((row) => row.limit !== null).map((row) => [row.resource, row.limit]))).toEqual(truth.limits);
      expect(Object.fromEntries(rows.filter((row) => row.used > 0).map((row) => [row.resource, row.used]))).toEqual(truth.usage);
    }
    const oldest = await queries.listReservations({ limit: 3 });
    expect(oldest).toHaveLength(3);
    expect(oldest.map((r) => r.reservedAt)).toEqual([...oldest.map((r) => r.reservedAt)].sort());
    expect(await queries.listReservations({ reservedBefore: oldest[0].reservedAt })).toEqual([]);
  });
});
