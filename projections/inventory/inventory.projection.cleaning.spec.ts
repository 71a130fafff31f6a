import { attachHandleUuidOf, deployableUuidOf, deviceUuidOf } from '@ledger/inventory';
import { openSqliteSqlDatabase } from '@ledger/processing';
import { oneBatch } from '@ledger/processing/testing';
import { arria10 } from '../../libs/inventory/src/domain/testing/host-report.fixtures';
import { InventoryQueries } from './inventory.queries';
import { applyBatches, expectBatchingChangesNothing } from './testing/inventory-batches';
import { type HistoryStep, recordHostHistory } from './testing/inventory-history';

const hostname = 'compute-7';
const fpga = deviceUuidOf(hostname, '0000:5e:00.0');
const deployable = deployableUuidOf(fpga, '0000:5e:00.0-region0');
const [h1, h2] = ['0000:5e:00.1', '0000:5e:00.2'].map((address) => attachHandleUuidOf(deployable, `VF/${address}`));
const arqA = '01900000-0000-7000-8000-00000000000a';
const arqB = '01900000-0000-7000-8000-00000000000b';
const job = '01900000-0000-7000-8000-0000000000c1';
const ran = [{ step: 'function-level reset', result: 'ok' }];
const claim = (arqUuid: string): HistoryStep => ({ type: 'ClaimAttachHandle', deviceUuid: fpga, deployableUuid: deployable, arqUuid, candidates: [h1!, h2!] });
const release = (arqUuid: string): HistoryStep => ({ type: 'ReleaseAttachHandle', deviceUuid: fpga, arqUuid, clean: true });
const failed = (attempt: number): HistoryStep => ({ type: 'RecordCleanFailed', deviceUuid: fpga, attempt, jobId: job, ran, code: 'DRIVER.TOOL_FAILED', reason: 'reset refused', failedAt: '2026-03-01T10:00:00.000Z' });
const cleaned = (attempt: number): HistoryStep => ({ type: 'RecordCleaned', deviceUuid: fpga, attempt, jobId: job, ran, cleanedAt: '2026-03-01T10:00:01.000Z' });

describe('inventoryProjection: cleaning', () => {
  it('shows the device cleaning, clean-failed with the reason, and clean again, in any batching', async () => {
    const steps: HistoryStep[] = [{ report: [arria10('0000:5e:00.0', 3)] }, claim(arqA), claim(arqB), release(arqA), release(arqB), failed(1)];
    const failedSnapshot = await expectBatchingChangesNothing(await recordHostHistory(hostname, steps));
    expect(failedSnapshot.inv_devices.find((row) => row.uuid === fpga)).toMatchObject({ clean_state: 'clean-failed', clean_reason: 'reset refused' });

    const retried = await expectBatchingChangesNothing(await recordHostHistory(hostname, [...steps, { type: 'RetryClean', deviceUuid: fpga }]));
    expect(retried.inv_devices.find((row) => row.uuid === fpga)).toMatchObject({ clean_state: 'cleaning' });

    const db = await openSqliteSqlDatabase({ file: ':memory:' });
    try {
      // Attempt 1 cleaned arqA's handle and failed, 2 cleans arqB's, 3 retries the first.
      await applyBatches(db, oneBatch(await recordHostHistory(hostname, [...steps, { type: 'RetryClean', deviceUuid: fpga }, cleaned(2), cleaned(3)])));
      const device = await new InventoryQueries(db).getDevice(fpga);
      expect(device).toMatchObject({ cleanState: 'clean', cleanReason: null });
      expect(device?.dirtyHandles).toEqual({});
    } finally {
      await db.close();
    }
  });

  it('lists the handles of a device still cleaning with their status', async () => {
    const db = await openSqliteSqlDatabase({ file: ':memory:' });
    try {
      await applyBatches(db, oneBatch(await recordHostHistory(hostname, [{ report: [arria10('0000:5e:00.0', 3)] }, claim(arqA), release(arqA)])));
      const device = await new InventoryQueries(db).getDevice(fpga);
      expect(device).toMatchObject({ cleanState: 'cleaning', cleanReason: null });
      expect(device?.dirtyHandles).toEqual({ [h1!]: 'cleaning' });
    } finally {
      await db.close();
    }
  });
});
