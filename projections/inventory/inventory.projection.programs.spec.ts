import { deployableUuidOf, type DeviceJobCommand, deviceUuidOf } from '@ledger/inventory';
import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { oneBatch } from '@ledger/processing/testing';
import { arria10 } from '../../libs/inventory/src/domain/testing/host-report.fixtures';
import { InventoryQueries } from './inventory.queries';
import { applyBatches, expectBatchingChangesNothing } from './testing/inventory-batches';
import { recordHostHistory } from './testing/inventory-history';

const hostname = 'compute-8';
const fpga = deviceUuidOf(hostname, '0000:5e:00.0');
const deployable = deployableUuidOf(fpga, '0000:5e:00.0-region0');
const job = (n: number) => `0196b3c2-0000-7000-8000-${String(n).padStart(12, '0')}`;
const BITSTREAM = '0196b3c2-0000-7000-8000-0000000000b5';
const [F1, F2, F3] = ['9f', '1e', '77'].map((byte) => byte.repeat(16));
const requestedBy = { user: 'ops', project: 'p-ops', workflow: null };
const common = (n: number) => ({ deviceUuid: fpga, hostname, jobId: job(n), requestedBy });

const programmed = (n: number, functionId: string, bitstreamId: string | null): DeviceJobCommand => ({
  type: 'RecordRegionProgrammed', ...common(n), deployableUuid: deployable, region: null, bitstreamId, sha256: null, functionId, previousFunctionId: null,
  programmedAt: `2026-03-01T10:0${n}:00.000Z`,
});
const failed = (n: number, holds: string | null | undefined): DeviceJobCommand => ({
  type: 'RecordRegionProgramFailed', ...common(n), deployableUuid: deployable, region: null, bitstreamId: null, code: 'DRIVER.TOOL_FAILED', reason: 'fpgaconf failed',
  regionHolds: holds === undefined ? null : { functionId: holds }, deviceState: 'as read back', failedAt: '2026-03-01T11:00:00.000Z',
});

describe('inventoryProjection: what regions, shells and VFs hold (device-stream job facts)', () => {
  let db: SqlDatabase;
  let queries: InventoryQueries;
  const region = async () => {
    const { bitstreamId, functionId, programmedAt } = (await queries.getDeployable(deployable))!;
    return { bitstreamId, functionId, programmedAt };
  };

  beforeEach(async () => {
    db = await openSqliteSqlDatabase({ file: ':memory:' });
    queries = new InventoryQueries(db);
  });
  afterEach(() => db.close());

  it("shows the region's last load on the deployable, the shell's interface id and the VF count on the device", async () => {
    const events = await recordHostHistory(hostname, [
      { report: [arria10('0000:5e:00.0', 3)] },
      programmed(1, F1, BITSTREAM),
      { type: 'RecordShellProgrammed', ...common(2), bitstreamId: null, sha256: null, interfaceId: F3, previousInterfaceId: null, programmedAt: '2026-03-01T10:02:00.000Z' },
      { type: 'RecordVfsConfigured', ...common(3), numVfs: 8, previousNumVfs: 3, configuredAt: '2026-03-01T10:03:00.000Z' },
    ]);
    await applyBatches(db, oneBatch(events));
    expect(await region()).toEqual({ bitstreamId: BITSTREAM, functionId: F1, programmedAt: '2026-03-01T10:01:00.000Z' });
    expect(await queries.getDevice(fpga)).toMatchObject({ shellInterfaceId: F3, configuredVfs: 8 });
    expect((await queries.listDeployables({ hostname })).items[0]).toMatchObject({ bitstreamId: BITSTREAM, functionId: F1 });
  });

  it('keeps each region of a multi-region card its own: loading region 1 leaves region 0 as it was', async () => {
    const card = arria10('0000:5e:00.0', 2);
    const region1 = { ...card.deployables[0]!, name: '0000:5e:00.0-region1', attachHandles: [{ kind: 'VF' as const, address: '0000:5e:00.3' }], count: 1 };
    const deployable1 = deployableUuidOf(fpga, '0000:5e:00.0-region1');
    const events = await recordHostHistory(hostname, [
      { report: [{ ...card, deployables: [card.deployables[0]!, region1] }] },
      programmed(1, F1, BITSTREAM),
      { ...programmed(2, F2, null), deployableUuid: deployable1, region: '1' } as DeviceJobCommand,
    ]);
    await applyBatches(db, oneBatch(events));
    expect(await region()).toEqual({ bitstreamId: BITSTREAM, functionId: F1, programmedAt: '2026-03-01T10:01:00.000Z' });
    expect(await queries.getDeployable(deployable1)).toMatchObject({ bitstreamId: null, functionId: F2, programmedAt: '2026-03-01T10:02:00.000Z' });
  });

  it('keeps the record when a failed load left the previous function, and takes the read-back function (from no known bitstream) when not', async () => {
    const kept = await recordHostHistory(hostname, [{ report: [arria10('0000:5e:00.0', 3)] }, programmed(1, F1, BITSTREAM), failed(2, F1), failed(3, undefined)]);
    await applyBatches(db, oneBatch(kept));
    expect(await region()).toEqual({ bitstreamId: BITSTREAM, functionId: F1, programmedAt: '2026-03-01T10:01:00.000Z' });

    const changed = await recordHostHistory(hostname, [{ report: [arria10('0000:5e:00.0', 3)] }, programmed(1, F1, BITSTREAM), failed(2, null)]);
    const other = await openSqliteSqlDatabase({ file: ':memory:' });
    try {
      await applyBatches(other, oneBatch(changed));
      const { bitstreamId, functionId } = (await new InventoryQueries(other).getDeployable(deployable))!;
      expect({ bitstreamId, functionId }).toEqual({ bitstreamId: null, functionId: null });
    } finally {
      await other.close();
    }
  });

  it('remembers what a region holds while a report drops its deployable, and shows it again when the deployable comes back', async () => {
    const events = await recordHostHistory(hostname, [
      { report: [arria10('0000:5e:00.0', 3)] },
      programmed(1, F2, null),
      { report: [] },
      { report: [arria10('0000:5e:00.0', 3)] },
    ]);
    await applyBatches(db, oneBatch(events));
    expect(await region()).toEqual({ bitstreamId: null, functionId: F2, programmedAt: '2026-03-01T10:01:00.000Z' });
  });

  it('builds the same tables however the events are batched or redelivered', async () => {
    await expectBatchingChangesNothing(
      await recordHostHistory(hostname, [
        { report: [arria10('0000:5e:00.0', 3)] },
        programmed(1, F1, BITSTREAM),
        failed(2, F2),
        { report: [arria10('0000:5e:00.0', 2)] },
        programmed(3, F3, null),
        { type: 'RecordVfsConfigured', ...common(4), numVfs: 2, previousNumVfs: 3, configuredAt: '2026-03-01T10:04:00.000Z' },
      ]),
    );
  });
});
