import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { applyProjectionBatches, everyBatchTwice, inBatchesOf, onePerBatch, postgresTestDatabases, type Batches, type TestDatabases } from '@ledger/processing/testing';
import { describeWithService, postgresUnavailable } from '../../test/support/services';
import { deviceHistoryProjection } from './device-history.projection';
import { DeviceHistoryQueries } from './device-history.queries';
import { recordTwoTenancies } from './testing/record-two-tenancies';
import { DEVICE } from './testing/tenancy-history';

const ALL = { all: true } as const;

async function answers(db: SqlDatabase, batches: Batches) {
  await applyProjectionBatches(db, deviceHistoryProjection, batches);
  const queries = new DeviceHistoryQueries(db);
  return {
    held: await queries.tenancies(DEVICE, {}, ALL),
    ownOnly: await queries.tenancies(DEVICE, { from: 1 }, { project: 'p2' }),
    timeline: await queries.timeline(DEVICE, { limit: 3 }, ALL),
  };
}

describeWithService('PostgreSQL', postgresUnavailable())('deviceHistoryProjection (PostgreSQL)', () => {
  let databases: TestDatabases;
  beforeAll(() => {
    databases = postgresTestDatabases();
  });
  afterAll(() => databases.dispose());

  it('answers what SQLite answers, also when every batch arrives twice', async () => {
    const events = await recordTwoTenancies();
    const sqlite = await openSqliteSqlDatabase({ file: ':memory:' });
    const expected = await answers(sqlite, onePerBatch(events));
    await sqlite.close();
    expect(expected.held).toHaveLength(2);
    expect(await answers(await databases.open('dh_one_per_batch'), onePerBatch(events))).toEqual(expected);
    expect(await answers(await databases.open('dh_batches_twice'), everyBatchTwice(inBatchesOf(4, events)))).toEqual(expected);
  });
});
