import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import type { QuotaCommand } from '@ledger/quota';
import { quotaProjection } from './quota.projection';
import { QuotaQueries } from './quota.queries';
import { everyBatchTwice, inBatchesOf, oneBatch, onePerBatch } from '@ledger/processing/testing';
import { applyBatches, buildQuota, snapshotQuota } from './testing/quota-batches';
import { quotaCommandMix, recordQuotaHistory } from './testing/quota-history';

const scenario: QuotaCommand[] = [
  { type: 'SetQuotaLimits', project: 'p1', limits: { FPGA: 2, 'capacity:memoryGiB': 160 } },
  { type: 'ReserveQuota', project: 'p1', consumers: [{ consumerId: 'arq-1', resources: { FPGA: 1, 'capacity:memoryGiB': 80 } }] },
  { type: 'ReserveQuota', project: 'p1', consumers: [{ consumerId: 'arq-2', resources: { FPGA: 1 } }] },
  { type: 'ReserveQuota', project: 'p2', consumers: [{ consumerId: 'arq-3', resources: { PGPU: 4 } }] },
  { type: 'ReleaseQuota', project: 'p1', consumerIds: ['arq-2'] },
  { type: 'SetQuotaLimits', project: 'p1', limits: { 'capacity:memoryGiB': null, PGPU: 0 } },
  { type: 'ReserveQuota', project: 'p1', consumers: [{ consumerId: 'arq-4', resources: { FPGA: 1 } }] },
];

describe('quotaProjection (SQLite :memory:)', () => {
  let db: SqlDatabase;

  beforeEach(async () => {
    db = await openSqliteSqlDatabase({ file: ':memory:' });
  });
  afterEach(() => db.close());

  it('reads only quota events from quota streams', () => {
    expect(quotaProjection).toMatchObject({ name: 'quota', version: 1, filter: { categories: ['quota'] } });
    expect([...quotaProjection.handles].sort()).toEqual(['quota.LimitSet', 'quota.Released', 'quota.Reserved']);
  });

  it('projects limits, usage and reservations, and serves them', async () => {
    const { events } = await recordQuotaHistory(scenario);
    await applyBatches(db, oneBatch(events));
    const queries = new QuotaQueries(db);
    expect(await queries.getProject('p1')).toEqual({ project: 'p1', limits: { FPGA: 2, PGPU: 0 }, usage: { FPGA: 2, 'capacity:memoryGiB': 80 } });
    expect(await queries.getProject('p2')).toEqual({ project: 'p2', limits: {}, usage: { PGPU: 4 } });
    expect(await queries.getProject('nobody')).toEqual({ project: 'nobody', limits: {}, usage: {} });

    const reservedAt = (consumerId: string) => events.find((event) => (event.data as { consumerId?: string }).consumerId === consumerId)!.recordedAt;
    expect(await queries.listReservations()).toEqual([
      { project: 'p1', consumerId: 'arq-1', resources: { FPGA: 1, 'capacity:memoryGiB': 80 }, reservedAt: reservedAt('arq-1') },
      { project: 'p2', consumerId: 'arq-3', resources: { PGPU: 4 }, reservedAt: reservedAt('arq-3') },
      { project: 'p1', consumerId: 'arq-4', resources: { FPGA: 1 }, reservedAt: reservedAt('arq-4') },
    ]);
    expect((await queries.listReservations({ reservedBefore: reservedAt('arq-4') })).map((r) => r.consumerId)).toEqual(['arq-1', 'arq-3']);
    expect((await queries.listReservations({ limit: 1 })).map((r) => r.consumerId)).toEqual(['arq-1']);
  });

  it('refuses a malformed listing filter', async () => {
    await applyBatches(db, []);
    const queries = new QuotaQueries(db);
    await expect(queries.listReservations({ limit: 0 })).rejects.toMatchObject({ code: 'QUOTA.INVALID', facts: { path: 'limit' } });
    await expect(queries.listReservations({ reservedBefore: 'yesterday' })).rejects.toMatchObject({ facts: { path: 'reservedBefore' } });
  });

  it('builds the same tables one event per batch, in one batch, every batch twice, and split anywhere', async () => {
    const { events } = await recordQuotaHistory(scenario);
    const expected = await buildQuota(onePerBatch(events));
    expect(await buildQuota(oneBatch(events))).toEqual(expected);
    expect(await buildQuota(everyBatchTwice(oneBatch(events)))).toEqual(expected);
    expect(await buildQuota(everyBatchTwice(onePerBatch(events)))).toEqual(expected);
    for (let split = 1; split < events.length; split++) {
      expect(await buildQuota([events.slice(0, split), events.slice(split)])).toEqual(expected);
      expect(await buildQuota([events.slice(0, split + 1), events.slice(split - 1)])).toEqual(expected);
    }
  });

  it('agrees with the command side after a long mixed history, however it is batched', async () => {
    const history = await recordQuotaHistory(quotaCommandMix(600));
    const types = new Set(history.events.map((event) => event.type));
    expect(types).toEqual(new Set(['quota.LimitSet', 'quota.Reserved', 'quota.Released']));
    await applyBatches(db, everyBatchTwice(inBatchesOf(37, history.events)));
    expect(await snapshotQuota(db)).toEqual(await buildQuota(onePerBatch(history.events)));

    const queries = new QuotaQueries(db);
    const listed = await queries.listReservations({ limit: 10_000 });
    for (const project of ['p1', 'p2', 'p3']) {
      const truth = await history.authoritative(project);
      expect(await queries.getProject(project)).toEqual({ project, limits: truth.limits, usage: truth.usage });
      expect(listed.filter((r) => r.project === project).map((r) => r.consumerId).sort()).toEqual(truth.consumers);
    }
  });

  it('empties its tables on reset', async () => {
    const { events } = await recordQuotaHistory(scenario);
    await applyBatches(db, oneBatch(events));
    await db.transaction((tx) => quotaProjection.reset(tx));
    expect(Object.values(await snapshotQuota(db)).every((rows) => rows.length === 0)).toBe(true);
  });
});
