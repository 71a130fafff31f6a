import type { RecordedEvent } from '@ledger/eventstore';
import { attachHandleUuidOf, deployableUuidOf, deviceUuidOf, numericIdOf, resourceProviderUuidOf } from '@ledger/inventory';
import type { SqlDatabase } from '@ledger/processing';
import { describeWithService, postgresUnavailable } from '../../test/support/services';
import { arria10 } from '../../libs/inventory/src/domain/testing/host-report.fixtures';
import { InventoryQueries } from './inventory.queries';
import { inventoryProjection } from './inventory.projection';
import { snapshotInventory } from './inventory.snapshot';
import { everyBatchTwice, inBatchesOf, oneBatch, onePerBatch, postgresTestDatabases, type TestDatabases } from '@ledger/processing/testing';
import { applyBatches, buildInventory, writesOfApplying } from './testing/inventory-batches';
import { generateInventoryEvents } from './testing/inventory-event-mix';
import { recordInventoryScenario, scenarioDevices } from './testing/inventory-scenario';
import { recordHostHistory } from './testing/inventory-history';

const applyAll = (db: SqlDatabase, events: readonly RecordedEvent[]) => applyBatches(db, oneBatch(events));

describeWithService('PostgreSQL', postgresUnavailable())('inventoryProjection (PostgreSQL)', () => {
  let databases: TestDatabases;
  let events: RecordedEvent[];

  beforeAll(async () => {
    databases = postgresTestDatabases();
    events = await recordInventoryScenario();
  });

  afterAll(() => databases.dispose());

  it('builds exactly the tables SQLite builds, also when every batch or event arrives twice', async () => {
    const expected = await buildInventory(onePerBatch(events));

    const postgres = await databases.open('inventory_twice');
    await applyAll(postgres, events);
    expect(await snapshotInventory(postgres)).toEqual(expected);
    await applyAll(postgres, events);
    expect(await snapshotInventory(postgres)).toEqual(expected);

    const eventTwice = await databases.open('inventory_event_twice');
    await applyBatches(eventTwice, everyBatchTwice(onePerBatch(events)));
    expect(await snapshotInventory(eventTwice)).toEqual(expected);
  });

  it('writes no row a report leaves as it was: loaded BIGINT columns compare equal to the numbers it would write', async () => {
    // The second report changes the FPGA's VF count: its deployable is written again with its discovered attributes, which stay as they were.
    const firstReport = { report: [arria10('0000:5e:00.0', 2)] };
    const history = await recordHostHistory('compute-6', [firstReport, { report: [arria10('0000:5e:00.0', 1)] }]);
    const split = (await recordHostHistory('compute-6', [firstReport])).length;
    const postgres = await databases.open('inventory_unchanged_rows');
    await applyAll(postgres, history.slice(0, split));
    const writes = await writesOfApplying(postgres, history.slice(split));
    expect(writes.some((sql) => sql.includes('inv_deployables'))).toBe(true);
    expect(writes.filter((sql) => sql.includes('inv_attributes'))).toEqual([]);
    expect(await snapshotInventory(postgres)).toEqual(await buildInventory(oneBatch(history)));
  });

  it('builds the tables SQLite builds one event per batch from large batches of many hosts', async () => {
    const many = generateInventoryEvents({ hosts: 300, mix: 'churn' });
    const postgres = await databases.open('inventory_many');
    await applyBatches(postgres, everyBatchTwice(inBatchesOf(2000, many)));
    expect(await snapshotInventory(postgres)).toEqual(await buildInventory(onePerBatch(many)));
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

  it('keeps claims and attributes as SQLite does, and answers the binding and v2 queries', async () => {
    const fpga = deviceUuidOf('compute-5', '0000:5e:00.0');
    const deployable = deployableUuidOf(fpga, '0000:5e:00.0-region0');
    const [h1, h2] = ['0000:5e:00.1', '0000:5e:00.2'].map((address) => attachHandleUuidOf(deployable, `VF/${address}`));
    const arq = '01900000-0000-7000-8000-00000000000a';
    const history = await recordHostHistory('compute-5', [
      { report: [arria10('0000:5e:00.0', 2)] },
      { type: 'ClaimAttachHandle', deviceUuid: fpga, deployableUuid: deployable, arqUuid: arq, candidates: [h2, h1] },
      { report: [arria10('0000:5e:00.0', 1)] },
      { type: 'CreateAttribute', deployableUuid: deployable, key: 'owner', value: 'team-a', createdAt: '2026-03-05T00:00:00.000Z' },
      { report: [arria10('0000:5e:00.0', 2)] },
    ]);
    const postgres = await databases.open('inventory_claims');
    await applyBatches(postgres, everyBatchTwice(onePerBatch(history)));
    expect(await snapshotInventory(postgres)).toEqual(await buildInventory(oneBatch(history)));

    const queries = new InventoryQueries(postgres);
    expect(await queries.findDeployableByRpUuid(resourceProviderUuidOf('0000:5e:00.0-region0'))).toMatchObject({ uuid: deployable, deviceStatus: 'enabled' });
    expect((await queries.listAttachHandlesOfDeployable(deployable)).map((handle) => [handle.uuid, handle.claimedBy])).toEqual([
      [h1, null],
      [h2, arq],
    ]);
    expect(await queries.listClaims()).toEqual([{ handleUuid: h2, arqUuid: arq, deviceUuid: fpga, deployableUuid: deployable }]);
    expect((await queries.listAttributes({ deployableId: numericIdOf(deployable) })).map((attribute) => attribute.key)).toEqual([
      'rc',
      'trait0',
      'trait1',
      'trait2',
      'owner',
    ]);
    expect(await queries.findDeployableByNumericId(numericIdOf(deployable))).toMatchObject({ uuid: deployable });
    expect((await queries.searchDevices({ sortBy: 'hostname', sortDirection: 'desc', limit: 1 })).map((device) => device.uuid)).toEqual([fpga]);
  });
});
