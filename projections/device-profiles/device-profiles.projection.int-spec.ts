import { describeWithService, postgresUnavailable } from '../../test/support/services';
import { postgresTestDatabases, type TestDatabases } from '@ledger/processing/testing';
import { openSqliteSqlDatabase } from '@ledger/processing';
import { DeviceProfileQueries } from './device-profile.queries';
import { everyBatchTwice, oneBatch, onePerBatch } from '@ledger/processing/testing';
import { applyDeviceProfileBatches, snapshotDeviceProfiles } from './testing/device-profile-batches';
import { deviceProfileHistory } from './testing/device-profile-history';

describeWithService('PostgreSQL', postgresUnavailable())('deviceProfilesProjection (PostgreSQL)', () => {
  let databases: TestDatabases;
  const history = deviceProfileHistory();

  beforeAll(() => {
    databases = postgresTestDatabases();
  });
  afterAll(() => databases.dispose());

  it('builds the rows SQLite builds, also when every batch or event arrives twice, and answers the same queries', async () => {
    const sqlite = await openSqliteSqlDatabase({ file: ':memory:' });
    await applyDeviceProfileBatches(sqlite, onePerBatch(history));
    const expected = await snapshotDeviceProfiles(sqlite);
    const expectedList = await new DeviceProfileQueries(sqlite).list(['fpga-dp', 'gpu-dp']);
    await sqlite.close();

    const twice = await databases.open('dp_batch_twice');
    await applyDeviceProfileBatches(twice, everyBatchTwice(oneBatch(history)));
    expect(await snapshotDeviceProfiles(twice)).toEqual(expected);
    expect(await new DeviceProfileQueries(twice).list(['fpga-dp', 'gpu-dp'])).toEqual(expectedList);

    const eventTwice = await databases.open('dp_event_twice');
    await applyDeviceProfileBatches(eventTwice, everyBatchTwice(onePerBatch(history)));
    expect(await snapshotDeviceProfiles(eventTwice)).toEqual(expected);
  });
});
