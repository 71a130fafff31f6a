import { generateKeyPairSync } from 'node:crypto';
import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { applyProjectionBatches, everyBatchTwice, inBatchesOf, onePerBatch, postgresTestDatabases, type Batches, type TestDatabases } from '@ledger/processing/testing';
import { describeWithService, postgresUnavailable } from '../../../test/support/services';
import { deviceHistoryProjection } from '../device-history.projection';
import { recordedHistory } from '../testing/record-usage-history';
import { computeUsageReport, resolveUsageWindow } from './compute-usage-report';
import { usageReportText } from './usage-report';
import { UsageQueries } from './usage.queries';

describeWithService('PostgreSQL', postgresUnavailable())('usage from the device-history projection (PostgreSQL)', () => {
  let databases: TestDatabases;
  beforeAll(() => {
    databases = postgresTestDatabases();
  });
  afterAll(() => databases.dispose());

  it('gives the bytes SQLite gives, and the same health holders, also when every batch arrives twice', async () => {
    const { events, positions } = await recordedHistory();
    const window = await resolveUsageWindow(positions, { time: '2026-11-01T10:00:03.500Z' }, { time: '2026-11-01T10:00:20.000Z' });
    const { privateKey } = generateKeyPairSync('ed25519');
    const answers = async (db: SqlDatabase, batches: Batches) => {
      await applyProjectionBatches(db, deviceHistoryProjection, batches);
      return {
        report: usageReportText(await computeUsageReport(db, window, 'project', { all: true }, privateKey)),
        health: await new UsageQueries(db).healthTenancies({ cause: 'Xid 79' }, { all: true }),
      };
    };
    const sqlite = await openSqliteSqlDatabase({ file: ':memory:' });
    const expected = await answers(sqlite, onePerBatch(events));
    await sqlite.close();
    expect(expected.health).toHaveLength(1);
    expect(await answers(await databases.open('usage_one_per_batch'), onePerBatch(events))).toEqual(expected);
    expect(await answers(await databases.open('usage_batches_twice'), everyBatchTwice(inBatchesOf(4, events)))).toEqual(expected);
  });
});
