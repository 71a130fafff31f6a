import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { deviceHistoryProjection } from './device-history.projection';
import { DeviceHistoryQueries } from './device-history.queries';
import { applyProjectionBatches, everyBatchTwice, inBatchesOf, onePerBatch, type Batches } from '@ledger/processing/testing';
import { recordTwoTenancies } from './testing/record-two-tenancies';
import { ARQ_1, ARQ_2, DEVICE } from './testing/tenancy-history';

const ALL = { all: true } as const;

describe('deviceHistoryProjection (SQLite :memory:)', () => {
  let db: SqlDatabase;
  beforeEach(async () => {
    db = await openSqliteSqlDatabase({ file: ':memory:' });
  });
  afterEach(() => db.close());

  const build = async (batches: Batches) => {
    await applyProjectionBatches(db, deviceHistoryProjection, batches);
    return new DeviceHistoryQueries(db);
  };

  it('records who held the device, when, under which profile, bitstream and project', async () => {
    const events = await recordTwoTenancies();
    const queries = await build(onePerBatch(events));
    const held = await queries.tenancies(DEVICE, {}, ALL);
    expect(held.map((t) => [t.arqUuid, t.projectId, t.instanceUuid, t.deviceProfile?.name, t.region, t.bitstreamId, t.to === null])).toEqual([
      [ARQ_1, 'p1', 'vm-p1', 'fpga-p1', 'pr0', 'bs-1', false],
      [ARQ_2, 'p2', 'vm-p2', 'fpga-p2', 'pr0', 'bs-1', true],
    ]);
    expect(held[0].to!.position).toBeLessThan(held[1].from.position);
  });

  it('answers a range of positions, and only the scope\'s project', async () => {
    const events = await recordTwoTenancies();
    const queries = await build(onePerBatch(events));
    const [first, second] = await queries.tenancies(DEVICE, {}, ALL);
    expect((await queries.tenancies(DEVICE, { to: first.to!.position }, ALL)).map((t) => t.arqUuid)).toEqual([ARQ_1]);
    expect((await queries.tenancies(DEVICE, { from: second.from.position }, ALL)).map((t) => t.arqUuid)).toEqual([ARQ_2]);
    expect((await queries.tenancies(DEVICE, {}, { project: 'p2' })).map((t) => t.arqUuid)).toEqual([ARQ_2]);
    expect(await queries.tenancies(DEVICE, {}, { project: 'p3' })).toEqual([]);
  });

  it("lists the device's timeline in log order, a page at a time, a tenant's own entries only", async () => {
    const events = await recordTwoTenancies();
    const queries = await build(onePerBatch(events));
    const all = await queries.timeline(DEVICE, { limit: 100 }, ALL);
    expect(all.entries.map((e) => e.type)).toEqual(
      events.filter((e) => !e.stream.startsWith('quota-') && e.type !== 'allocation.ArqCreated').map((e) => e.type),
    );
    expect(all.entries[0]).toMatchObject({ type: 'inventory.DeviceDiscovered', actor: 'admin', projectId: null, summary: 'discovered on h1' });
    const page = await queries.timeline(DEVICE, { limit: 2 }, ALL);
    expect(page.next).toBe(page.entries[1].position);
    const rest = await queries.timeline(DEVICE, { after: page.next!, limit: 100 }, ALL);
    expect([...page.entries, ...rest.entries]).toEqual(all.entries);
    const p2 = await queries.timeline(DEVICE, {}, { project: 'p2' });
    expect(p2.entries.length).toBeGreaterThan(0);
    expect(p2.entries.every((e) => e.projectId === 'p2')).toBe(true);
  });

  it('builds the same tables one event per batch, in one batch, every batch twice, and split anywhere', async () => {
    const events = await recordTwoTenancies();
    const snapshot = async (batches: Batches) => {
      const fresh = await openSqliteSqlDatabase({ file: ':memory:' });
      await applyProjectionBatches(fresh, deviceHistoryProjection, batches);
      const queries = new DeviceHistoryQueries(fresh);
      const result = { held: await queries.tenancies(DEVICE, {}, ALL), timeline: await queries.timeline(DEVICE, {}, ALL) };
      await fresh.close();
      return result;
    };
    const expected = await snapshot(onePerBatch(events));
    expect(await snapshot([events])).toEqual(expected);
    expect(await snapshot(everyBatchTwice(onePerBatch(events)))).toEqual(expected);
    expect(await snapshot(everyBatchTwice(inBatchesOf(3, events)))).toEqual(expected);
  });
});
