import { generateKeyPairSync } from 'node:crypto';
import { NotedPositionTimes, resolveLogPoint } from './resolve-log-point';
import { signUsageReport, usageReportBody, usageReportSignatureValid, usageReportText } from './usage-report';
import { assertUsagePeriodOver, usageWindowOf } from './usage-window';

const window = usageWindowOf({ position: 3, time: '2026-11-01T10:00:00.000Z' }, { position: 9, time: '2026-11-01T12:00:00.000Z' });
const rows = [{ group: 'p1', tenancies: 1, heldSeconds: '60.000', gpuMemoryGiBSeconds: '4800.000', migSliceSeconds: null }];

describe('usage report', () => {
  const keys = generateKeyPairSync('ed25519');

  it('gives the same bytes for the same period at the same position, signed with the checkpoint key', () => {
    const first = usageReportText(signUsageReport(usageReportBody(window, 'project', null, rows), keys.privateKey));
    const second = usageReportText(signUsageReport(usageReportBody(window, 'project', null, rows.map((r) => ({ ...r }))), keys.privateKey));
    expect(second).toBe(first);
    expect(first.startsWith('{"from":{"position":3,')).toBe(true);
    const report = JSON.parse(first);
    expect(report).toMatchObject({ kind: 'ledger.UsageReport', position: 9, groupBy: 'project', project: null });
    expect(usageReportSignatureValid(report, keys.publicKey)).toBe(true);
  });

  it('fails verification when a row, the scope or the key differs', () => {
    const report = signUsageReport(usageReportBody(window, 'project', 'p1', rows), keys.privateKey);
    expect(usageReportSignatureValid({ ...report, rows: [{ ...rows[0], heldSeconds: '61.000' }] }, keys.publicKey)).toBe(false);
    expect(usageReportSignatureValid({ ...report, project: null }, keys.publicKey)).toBe(false);
    expect(usageReportSignatureValid(report, generateKeyPairSync('ed25519').publicKey)).toBe(false);
    expect(usageReportSignatureValid(signUsageReport(usageReportBody(window, 'project', 'p1', rows), undefined), keys.publicKey)).toBe(false);
  });

  it('refuses a window whose start is after its end, and a period not over at the clock it is given', () => {
    expect(() => usageWindowOf(window.to, window.from)).toThrow(expect.objectContaining({ code: 'USAGE.BAD_WINDOW' }));
    expect(() => assertUsagePeriodOver(window, new Date('2026-11-01T11:59:59.999Z'))).toThrow(expect.objectContaining({ code: 'USAGE.PERIOD_NOT_OVER' }));
    expect(() => assertUsagePeriodOver(window, new Date('2026-11-01T12:00:00.000Z'))).not.toThrow();
  });
});

describe('resolveLogPoint', () => {
  const log = new NotedPositionTimes();
  for (const [position, second] of [[4, 10], [5, 20], [7, 30]] as const) log.note({ position, recordedAt: `2026-11-01T10:00:${second}.000Z` });

  it('takes a time to the last event at or before it and keeps the time as the edge', async () => {
    expect(await resolveLogPoint(log, { time: '2026-11-01T10:00:25.000Z' })).toEqual({ position: 5, time: '2026-11-01T10:00:25.000Z' });
    expect(await resolveLogPoint(log, { time: '2026-11-01T10:00:20.000Z' })).toEqual({ position: 5, time: '2026-11-01T10:00:20.000Z' });
    expect(await resolveLogPoint(log, { time: '2026-11-01T09:00:00.000Z' })).toEqual({ position: 0, time: '2026-11-01T09:00:00.000Z' });
    expect((await resolveLogPoint(log, { time: '2027-01-01T00:00:00.000Z' })).position).toBe(7);
  });

  it('takes a position to the time its event was recorded, and refuses one beyond the head', async () => {
    expect(await resolveLogPoint(log, { position: 7 })).toEqual({ position: 7, time: '2026-11-01T10:00:30.000Z' });
    await expect(resolveLogPoint(log, { position: 8 })).rejects.toMatchObject({ code: 'AUDIT.AS_OF_BEYOND_HEAD' });
  });
});
