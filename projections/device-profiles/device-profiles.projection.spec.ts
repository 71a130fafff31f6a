import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { DeviceProfileQueries } from './device-profile.queries';
import { deviceProfilesProjection } from './device-profiles.projection';
import { everyBatchTwice, oneBatch, onePerBatch } from '@ledger/processing/testing';
import { applyDeviceProfileBatches, snapshotDeviceProfiles } from './testing/device-profile-batches';
import { deviceProfileHistory, PROFILE_UUIDS } from './testing/device-profile-history';

describe('deviceProfilesProjection (SQLite :memory:)', () => {
  let db: SqlDatabase;
  const history = deviceProfileHistory();

  beforeEach(async () => {
    db = await openSqliteSqlDatabase({ file: ':memory:' });
  });
  afterEach(() => db.close());

  it('reads only device-profile events from profile streams', () => {
    expect(deviceProfilesProjection).toMatchObject({
      name: 'device-profiles',
      version: 1,
      handles: ['allocation.DeviceProfileCreated', 'allocation.DeviceProfileDeleted'],
      filter: { categories: ['profile'] },
    });
  });

  it('keeps one row per live profile: deletes remove, a reused name or uuid is a new row', async () => {
    await applyDeviceProfileBatches(db, oneBatch(history));
    const queries = new DeviceProfileQueries(db);
    expect((await queries.list()).map((profile) => [profile.name, profile.uuid])).toEqual([
      ['gpu-dp', PROFILE_UUIDS.gpu],
      ['fpga-dp', PROFILE_UUIDS.fpgaAgain],
      ['tmp2-dp', PROFILE_UUIDS.tmp],
    ]);
    expect(await queries.getByName('fpga-dp')).toEqual({
      uuid: PROFILE_UUIDS.fpgaAgain,
      name: 'fpga-dp',
      description: null,
      groups: [{ 'resources:FPGA': '1', 'trait:CUSTOM_FPGA_INTEL': 'required' }],
      createdAt: '2026-03-01T10:00:03.000Z',
      updatedAt: null,
    });
    expect(await queries.getByUuid(PROFILE_UUIDS.gpu.toUpperCase())).toMatchObject({ name: 'gpu-dp', description: 'one A100', groups: [{ 'resources:PGPU': '2' }, { 'resources:VGPU': '1' }] });
    expect(await queries.getByUuid(PROFILE_UUIDS.fpga)).toBeUndefined();
    expect(await queries.getByName('tmp-dp')).toBeUndefined();
  });

  it('filters by names, and finds nothing for an empty list or unknown names', async () => {
    await applyDeviceProfileBatches(db, oneBatch(history));
    const queries = new DeviceProfileQueries(db);
    expect((await queries.list(['tmp2-dp', 'gpu-dp', 'nope'])).map((profile) => profile.name)).toEqual(['gpu-dp', 'tmp2-dp']);
    expect(await queries.list([])).toEqual([]);
    expect(await queries.list([''])).toEqual([]);
  });

  it('builds the same rows in one batch, one event per batch, and with every batch applied twice', async () => {
    await applyDeviceProfileBatches(db, onePerBatch(history));
    const expected = await snapshotDeviceProfiles(db);
    expect(expected).toHaveLength(3);
    for (const batches of [oneBatch(history), everyBatchTwice(oneBatch(history)), everyBatchTwice(onePerBatch(history))]) {
      const other = await openSqliteSqlDatabase({ file: ':memory:' });
      await applyDeviceProfileBatches(other, batches);
      expect(await snapshotDeviceProfiles(other)).toEqual(expected);
      await other.close();
    }
  });

  it('empties its table on reset', async () => {
    await applyDeviceProfileBatches(db, oneBatch(history));
    await db.transaction((tx) => deviceProfilesProjection.reset(tx));
    expect(await new DeviceProfileQueries(db).list()).toEqual([]);
  });
});
