import type { RecordedEvent } from '@ledger/eventstore';
import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { InventoryQueries } from './inventory.queries';
import { inventoryProjection } from './inventory.projection';
import { snapshotInventory } from './inventory.snapshot';
import { everyBatchTwice, inBatchesOf, oneBatch, onePerBatch } from '@ledger/processing/testing';
import { buildInventory, writesOfApplying } from './testing/inventory-batches';
import { recordingExecutor } from './testing/recording-executor';
import { generateInventoryEvents } from './testing/inventory-event-mix';
import { recordInventoryScenario, scenarioDevices } from './testing/inventory-scenario';

describe('inventoryProjection (SQLite :memory:)', () => {
  let db: SqlDatabase;
  let events: RecordedEvent[];
  const applyAll = (sequence: readonly RecordedEvent[]) => db.transaction((tx) => inventoryProjection.apply(sequence, tx));

  beforeAll(async () => {
    events = await recordInventoryScenario();
  });

  beforeEach(async () => {
    db = await openSqliteSqlDatabase({ file: ':memory:' });
    await db.transaction((tx) => inventoryProjection.setup(tx));
  });

  afterEach(() => db.close());

  it('reads nothing back in a fold that starts on empty tables, and builds what a fold that loads builds', async () => {
    const reads = await db.transaction(async (tx) => {
      const recorded = recordingExecutor(tx);
      const fold = inventoryProjection.fold!(recorded.executor, { empty: true });
      await fold.add(events);
      await fold.flush();
      return recorded.reads;
    });
    expect(reads).toEqual([]);
    expect(await snapshotInventory(db)).toEqual(await buildInventory(oneBatch(events)));
  });

  it('writes nothing when a batch it holds arrives again', async () => {
    await applyAll(events);
    expect(await writesOfApplying(db, events)).toEqual([]);
  });

  it('reads only inventory events from host, device and attribute streams', () => {
    expect(inventoryProjection.name).toBe('inventory');
    expect(inventoryProjection.filter).toEqual({ categories: ['host', 'device', 'attribute'] });
    expect(new Set(events.map((event) => event.type)).size).toBeGreaterThanOrEqual(7);
    expect(events.every((event) => inventoryProjection.handles.includes(event.type))).toBe(true);
  });

  it('projects hosts, devices, deployables and handles', async () => {
    await applyAll(events);
    const queries = new InventoryQueries(db);

    const hosts = await queries.listHosts();
    expect(hosts.items.map((host) => [host.hostname, host.deviceCount])).toEqual([
      ['compute-1', 3],
      ['compute-2', 1],
      ['compute-3', 0],
    ]);

    const gpu = await queries.getDevice(scenarioDevices.compute1Gpu);
    expect(gpu).toMatchObject({
      hostname: 'compute-1',
      type: 'GPU',
      vendorId: '10de',
      pciAddress: '0000:3b:00.0',
      driver: 'vfio-pci',
      numaNode: 0,
      capacity: { memoryGiB: 80 },
      boardInfo: { serial: '1652421000123', vbios: '92.00.36.00.02' },
      // Disabled before it vanished; the device stream still says so after it came back.
      status: 'maintaining',
      disabledReason: 'fan failure',
    });
    expect(await queries.getDevice(scenarioDevices.compute2Gpu)).toBeUndefined();
    expect(await queries.getDevice(scenarioDevices.compute2Vgpu)).toMatchObject({ status: 'enabled', disabledReason: null });

    const [fpga] = (await queries.listDeployables({ deviceUuid: scenarioDevices.compute1Fpga })).items;
    expect(fpga).toMatchObject({ resourceClass: 'FPGA', count: 2, name: '0000:5e:00.0-region0', hostname: 'compute-1' });
    expect((await queries.listAttachHandles(fpga.uuid)).map((handle) => [handle.kind, handle.address, handle.inUse])).toEqual([
      ['VF', '0000:5e:00.1', false],
      ['VF', '0000:5e:00.2', false],
    ]);

    const [nic] = (await queries.listDeployables({ deviceUuid: scenarioDevices.compute1Nic })).items;
    expect(nic.traits).toEqual(['CUSTOM_PHYSNET2', 'CUSTOM_VF']);
    expect((await queries.listAttachHandles(nic.uuid)).map((handle) => handle.physicalNetwork)).toEqual(['physnet2', 'physnet2']);

    const vgpu = (await queries.listDeployables({ hostname: 'compute-2' })).items;
    expect(vgpu.map((deployable) => [deployable.name, deployable.count])).toEqual([['compute-2_t4', 2]]);
    expect((await queries.listAttachHandles(vgpu[0].uuid)).map((handle) => [handle.mdevType, handle.slot])).toEqual([
      ['nvidia-222', 0],
      ['nvidia-222', 1],
    ]);

    const snapshot = await snapshotInventory(db);
    expect(snapshot.inv_deployables).toHaveLength(4);
    expect(snapshot.inv_attach_handles).toHaveLength(1 + 2 + 2 + 2);
  });

  it('gives the same tables in one batch as one event per batch, also when every batch or event is delivered twice', async () => {
    await applyAll(events);
    const once = await snapshotInventory(db);
    expect(await buildInventory(onePerBatch(events))).toEqual(once);
    expect(await buildInventory(everyBatchTwice(onePerBatch(events)))).toEqual(once);
    expect(await buildInventory(everyBatchTwice(inBatchesOf(4, events)))).toEqual(once);
    expect(await buildInventory(oneBatch(events.flatMap((event) => [event, event])))).toEqual(once);

    await applyAll(events);
    expect(await snapshotInventory(db)).toEqual(once);
    for (const event of events) await applyAll([event]);
    expect(await snapshotInventory(db)).toEqual(once);
  });

  it('takes created and updated times from the events', async () => {
    await applyAll(events);
    const gpuEvents = events.filter((event) => JSON.stringify(event.data).includes(scenarioDevices.compute1Gpu));
    const rediscovered = gpuEvents.filter((event) => event.type === 'inventory.DeviceDiscovered').at(-1)!;
    const device = await new InventoryQueries(db).getDevice(scenarioDevices.compute1Gpu);
    expect(device?.createdAt).toBe(rediscovered.recordedAt);
    expect(device?.updatedAt).toBe(rediscovered.recordedAt);
  });

  it('filters and pages devices and deployables with opaque cursors', async () => {
    await applyAll(events);
    const queries = new InventoryQueries(db);

    expect((await queries.listDevices({ type: 'GPU' })).items.map((device) => device.uuid).sort()).toEqual(
      [scenarioDevices.compute1Gpu, scenarioDevices.compute2Vgpu].sort(),
    );
    expect((await queries.listDevices({ vendor: '8086' })).items).toHaveLength(2);
    expect((await queries.listDevices({ vendor: '10DE', hostname: 'compute-2' })).items.map((device) => device.uuid)).toEqual([
      scenarioDevices.compute2Vgpu,
    ]);
    expect((await queries.listDevices({ status: 'maintaining' })).items.map((device) => device.uuid)).toEqual([scenarioDevices.compute1Gpu]);
    expect((await queries.listDevices({ hostname: 'compute-3' })).items).toEqual([]);

    const all = await queries.listDevices();
    expect(all.nextCursor).toBeNull();
    expect(all.items).toHaveLength(4);
    const paged = [];
    let cursor: string | undefined;
    do {
      const page = await queries.listDevices({ limit: 1, cursor });
      expect(page.items.length).toBeLessThanOrEqual(1);
      paged.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(paged).toEqual(all.items);
    expect(all.items.map((device) => device.hostname)).toEqual(['compute-1', 'compute-1', 'compute-1', 'compute-2']);
    const some = await queries.listDeviceFields({ limit: 2 }, ['boardInfo', 'status']);
    expect(some.items).toEqual(all.items.slice(0, 2).map(({ uuid, hostname, boardInfo, status }) => ({ uuid, hostname, boardInfo, status })));
    expect((await queries.listDeviceFields({ limit: 2, cursor: some.nextCursor! }, [])).items).toEqual(all.items.slice(2).map(({ uuid, hostname }) => ({ uuid, hostname })));

    const first = await queries.listDeployables({ limit: 3 });
    const rest = await queries.listDeployables({ limit: 3, cursor: first.nextCursor! });
    expect(first.items).toHaveLength(3);
    expect(rest).toEqual({ items: [expect.objectContaining({ hostname: 'compute-2' })], nextCursor: null });
    expect((await queries.listDeployables({ resourceClass: 'CUSTOM_NIC' })).items).toHaveLength(1);

    const hosts = await queries.listHosts({ limit: 2 });
    expect((await queries.listHosts({ cursor: hosts.nextCursor! })).items.map((host) => host.hostname)).toEqual(['compute-3']);
    expect(await queries.getHost('compute-2')).toMatchObject({ deviceCount: 1, status: 'registered', registeredAt: '2026-03-01T10:00:00.000Z' });
    expect(await queries.getHost('nowhere')).toBeUndefined();
  });

  it("follows a host's provisioning in its status, once per event however often it arrives", async () => {
    const hostEvents = events.filter((event) => event.stream === 'host-compute-2');
    const last = hostEvents.at(-1)!;
    const next = (offset: number, type: string, data: Record<string, unknown>): RecordedEvent => ({
      ...last,
      id: `0196b3c2-0000-7000-8000-00000000f00${offset}`,
      type,
      version: last.version + offset,
      position: events.at(-1)!.position + offset,
      data: { hostname: 'compute-2', provisionId: 'p1', ...data },
    });
    const started = next(1, 'inventory.HostProvisioningStarted', { startedAt: last.recordedAt });
    const failed = next(2, 'inventory.HostProvisionFailed', { code: 'JOB.TIMED_OUT', reason: 'no agent', failedAt: last.recordedAt });
    const status = async () => (await new InventoryQueries(db).getHost('compute-2'))!.status;
    await applyAll([...events, started]);
    expect(await status()).toBe('provisioning');
    await applyAll([started, failed, failed]);
    expect(await status()).toBe('provision-failed');
    await applyAll([started]);
    expect(await status()).toBe('provision-failed');
  });

  it('refuses bad limits and cursors with INVENTORY.QUERY_INVALID', async () => {
    const queries = new InventoryQueries(db);
    await expect(queries.listDevices({ limit: 1001 })).rejects.toMatchObject({ code: 'INVENTORY.QUERY_INVALID', status: 400 });
    await expect(queries.listDevices({ limit: 0 })).rejects.toMatchObject({ code: 'INVENTORY.QUERY_INVALID' });
    await expect(queries.listDevices({ cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: 'INVENTORY.QUERY_INVALID' });
    await expect(queries.listHosts({ cursor: Buffer.from('["a","b"]').toString('base64url') })).rejects.toMatchObject({
      code: 'INVENTORY.QUERY_INVALID',
    });
  });

  it('empties every table on reset, and rebuilds the same model', async () => {
    await applyAll(events);
    const live = await snapshotInventory(db);
    await db.transaction((tx) => inventoryProjection.reset(tx));
    expect(await snapshotInventory(db)).toEqual({
      inv_attributes: [],
      inv_handle_claims: [],
      inv_region_programs: [],
      inv_attach_handles: [],
      inv_deployables: [],
      inv_devices: [],
      inv_hosts: [],
    });
    await applyAll(events);
    expect(await snapshotInventory(db)).toEqual(live);
  });

  it('keeps a maintenance fact that precedes the device’s discovery', async () => {
    const disabled = events.find((event) => event.type === 'inventory.DeviceDisabled')!;
    const reordered = [disabled, ...events.filter((event) => event !== disabled)];
    await applyAll(reordered);
    expect(await new InventoryQueries(db).getDevice(scenarioDevices.compute1Gpu)).toMatchObject({ status: 'maintaining' });
    expect(await snapshotInventory(db)).toEqual(await buildInventory(onePerBatch(reordered)));
  });
});

describe('inventoryProjection on many hosts', () => {
  it.each(['steady', 'churn'] as const)('is idempotent and ignores batch boundaries on the %s mix', async (mix) => {
    const events = generateInventoryEvents({ hosts: 40, mix });
    const once = await buildInventory(onePerBatch(events));
    expect(once.inv_hosts).toHaveLength(40);
    expect(await buildInventory(everyBatchTwice(onePerBatch(events)))).toEqual(once);
    expect(await buildInventory(oneBatch(events))).toEqual(once);
    expect(await buildInventory(everyBatchTwice(inBatchesOf(97, events)))).toEqual(once);
  });

  it('splits long key lists and row lists into several statements', async () => {
    const events = generateInventoryEvents({ hosts: 300, mix: 'churn' });
    const built = await buildInventory(oneBatch(events));
    // More than one statement's worth: 1024 keys per IN list, 1024 device rows and 2048 handle rows per upsert.
    expect(built.inv_devices.length).toBeGreaterThan(1024);
    expect(built.inv_attach_handles.length).toBeGreaterThan(2048);
    expect(await buildInventory(onePerBatch(events))).toEqual(built);
    expect(await buildInventory(everyBatchTwice(inBatchesOf(1000, events)))).toEqual(built);
  });
});
