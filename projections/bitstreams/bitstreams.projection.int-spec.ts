import { describeWithService, postgresUnavailable } from '../../test/support/services';
import { everyBatchTwice, inBatchesOf, onePerBatch, postgresTestDatabases, type TestDatabases } from '@ledger/processing/testing';
import { BitstreamQueries } from './bitstreams.queries';
import { applyBitstreamBatches, buildBitstreams, snapshotBitstreams } from './testing/bitstreams-batches';
import { DEVICE, recordBitstreamsHistory } from './testing/bitstreams-history';
import { openSqliteSqlDatabase } from '@ledger/processing';

describeWithService('PostgreSQL', postgresUnavailable())('bitstreamsProjection (PostgreSQL)', () => {
  let databases: TestDatabases;

  beforeAll(() => {
    databases = postgresTestDatabases();
  });
  afterAll(() => databases.dispose());

  it('builds exactly the tables SQLite builds, also when every batch arrives twice, and answers the same queries', async () => {
    const events = await recordBitstreamsHistory();
    const expected = await buildBitstreams(onePerBatch(events));
    const sqlite = await openSqliteSqlDatabase({ file: ':memory:' });
    await applyBitstreamBatches(sqlite, onePerBatch(events));
    const sqliteQueries = new BitstreamQueries(sqlite);

    const postgres = await databases.open('bitstreams');
    await applyBitstreamBatches(postgres, everyBatchTwice(inBatchesOf(4, events)));
    expect(await snapshotBitstreams(postgres)).toEqual(expected);
    const queries = new BitstreamQueries(postgres);
    expect(await queries.listBitstreams()).toEqual(await sqliteQueries.listBitstreams());
    expect(await queries.listSigningKeys()).toEqual(await sqliteQueries.listSigningKeys());
    expect(await queries.provenance(DEVICE)).toEqual(await sqliteQueries.provenance(DEVICE));
    expect(await queries.provenance(DEVICE)).toHaveLength(2);
    await sqlite.close();
  });
});
