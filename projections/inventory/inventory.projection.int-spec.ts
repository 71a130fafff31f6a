import type { RecordedEvent } from '@ledger/eventstore';
import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { describeWithService, postgresUnavailable } from '../../test/support/services';
import { postgresTestDatabases, type TestDatabases } from '../../libs/processing/src/testing/test-databases';
import { InventoryQueries } from './inventory.queries';
import { inventoryProjection } from './inventory.projection';
import { snapshotInventory } from './inventory.snapshot';
import { recordInventoryScenario, scenarioDevices } from './testing/inventory-scenario';

const applyAll = (db: SqlDatabase, events: readonly RecordedEvent[]) =>
  db.transaction(async (tx) => {
    await inventoryProjection.setup(tx);
    for (const event of events) await inventoryProjection.apply(event, tx);
  });

describeWithService('PostgreSQL', postgresUnavailable())('inventoryProjection (PostgreSQL)', () => {
  let databases: TestDatabases;
  let events: RecordedEvent[];

  beforeAll(async () => {
    databases = postgresTestDatabases();
    events = await recordInventoryScenario();
  });

  afterAll(() => databases.dispose());

  it('builds exactly the tables SQLite builds, also when every event arrives twice', async () => {
    const sqlite = await openSqliteSqlDatabase({ file: ':memory:' });
    await applyAll(sqlite, events);
    const expected = await snapshotInventory(sqlite);
    await sqlite.close();

    const postgres = await databases.open('inventory_twice');
    await applyAll(postgres, events.flatMap((event) => [event, event]));
    expect(await snapshotInventory(postgres)).toEqual(expected);
  });

  it('answers the same queries with the same pages', async () => {
    const postgres = await databases.open('inventory_queries');
    await applyAll(postgres, events);
    const queries = new InventoryQueries(postgres);
    expect((await queries.listDevices({ status: 'maintaining' })).items.map((device) => device.uuid)).toEqual([scenarioDevices.compute1Gpu]);
    const first = await queries.listDevices({ limit: 2 });
    const second = await queries.listDevices({ limit: 2, cursor: first.nextCursor! });
    expect([...first.items, ...second.items].map((device) => device.hostname)).toEqual(['compute-1', 'compute-1', 'compute-1', 'compute-2']);
    expect(second.nextCursor).toBeNull();
    const [deployable] = (await queries.listDeployables({ deviceUuid: scenarioDevices.compute2Vgpu })).items;
    expect((await queries.listAttachHandles(deployable.uuid)).map((handle) => handle.slot)).toEqual([0, 1]);
    await postgres.transaction((tx) => inventoryProjection.reset(tx));
    expect((await queries.listHosts()).items).toEqual([]);
  });
});
