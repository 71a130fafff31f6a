import { generateKeyPairSync } from 'node:crypto';
import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { applyProjectionBatches, everyBatchTwice, onePerBatch } from '@ledger/processing/testing';
import { deviceHistoryProjection } from '../device-history.projection';
import { recordedHistory } from '../testing/record-usage-history';
import { ARQ_2, DEVICE } from '../testing/tenancy-history';
import { computeUsageReport, resolveUsageWindow } from './compute-usage-report';
import { usageReportSignatureValid, usageReportText } from './usage-report';
import { UsageQueries } from './usage.queries';

describe('usage from the device-history projection', () => {
  let db: SqlDatabase;
  beforeEach(async () => {
    db = await openSqliteSqlDatabase({ file: ':memory:' });
  });
  afterEach(() => db.close());

  it('reports each project\'s seconds and GiB-seconds up to a time, signed, the same when every batch arrives twice', async () => {
    const { events, positions } = await recordedHistory();
    await applyProjectionBatches(db, deviceHistoryProjection, everyBatchTwice(onePerBatch(events)));
    const window = await resolveUsageWindow(positions, { position: 0 }, { time: '2026-11-01T10:00:20.000Z' });
    expect(window.to).toEqual({ position: 15, time: '2026-11-01T10:00:20.000Z' });
    const keys = generateKeyPairSync('ed25519');
    const report = await computeUsageReport(db, window, 'project', { all: true }, keys.privateKey);
    expect(report.rows).toEqual([
      { group: 'p1', tenancies: 1, heldSeconds: '4.000', gpuMemoryGiBSeconds: '320.000', migSliceSeconds: null },
      { group: 'p2', tenancies: 1, heldSeconds: '8.000', gpuMemoryGiBSeconds: '640.000', migSliceSeconds: null },
    ]);
    expect(usageReportSignatureValid(report, keys.publicKey)).toBe(true);
    expect((await computeUsageReport(db, window, 'resourceClass', { all: true }, undefined)).rows.map((r) => [r.group, r.heldSeconds])).toEqual([['FPGA', '12.000']]);

    const tenant = await computeUsageReport(db, window, 'project', { project: 'p2' }, keys.privateKey);
    expect(tenant).toMatchObject({ project: 'p2', rows: [{ group: 'p2' }] });
    expect(usageReportSignatureValid(tenant, keys.publicKey)).toBe(true);

    const fresh = await openSqliteSqlDatabase({ file: ':memory:' });
    await applyProjectionBatches(fresh, deviceHistoryProjection, [events]);
    expect(usageReportText(await computeUsageReport(fresh, window, 'project', { all: true }, keys.privateKey))).toBe(usageReportText(report));
    await fresh.close();
  });

  it('reads nothing after the report position: a release recorded later still counts as held', async () => {
    const { events, positions } = await recordedHistory();
    await applyProjectionBatches(db, deviceHistoryProjection, onePerBatch(events));
    const window = await resolveUsageWindow(positions, { time: '2026-11-01T10:00:06.000Z' }, { position: 7 });
    expect((await computeUsageReport(db, window, 'device', { all: true }, undefined)).rows).toEqual([]);
    const later = await resolveUsageWindow(positions, { time: '2026-11-01T10:00:05.000Z' }, { position: 8 });
    expect((await computeUsageReport(db, later, 'device', { all: true }, undefined)).rows).toEqual([
      { group: DEVICE, tenancies: 1, heldSeconds: '2.000', gpuMemoryGiBSeconds: '160.000', migSliceSeconds: null },
    ]);
  });

  it('names the projects that held a device when it reported a cause', async () => {
    const { events } = await recordedHistory();
    await applyProjectionBatches(db, deviceHistoryProjection, onePerBatch(events));
    const queries = new UsageQueries(db);
    expect(await queries.healthTenancies({}, { all: true })).toEqual([
      // Recorded before health policies (schema 1): read as watched then, judged by no policy.
      { projectId: 'p2', deviceUuid: DEVICE, arqUuid: ARQ_2, health: 'degraded', reason: 'Xid 79', cause: null, effect: 'watch', policyVersion: null, position: 15, recordedAt: '2026-11-01T10:00:14.000Z' },
    ]);
    expect(await queries.healthTenancies({ cause: 'Xid 79', from: { time: '2026-11-01T10:00:14.000Z' } }, { all: true })).toHaveLength(1);
    expect(await queries.healthTenancies({ cause: 'Xid 79', to: { position: 15 } }, { all: true })).toEqual([]);
    expect(await queries.healthTenancies({ cause: 'ECC' }, { all: true })).toEqual([]);
    expect(await queries.healthTenancies({}, { project: 'p1' })).toEqual([]);
    expect(await queries.healthTenancies({ device: DEVICE.toUpperCase() }, { all: true })).toHaveLength(1);
    expect(await queries.healthTenancies({ device: '0b0e0000-0000-4000-8000-0000000000ff' }, { all: true })).toEqual([]);
    expect(await queries.healthTenancies({ causeKind: 'xid' }, { all: true })).toEqual([]);
  });
});
