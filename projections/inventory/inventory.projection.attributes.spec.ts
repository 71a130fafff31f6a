import { attributeUuidOf, deployableUuidOf, deviceUuidOf, numericIdOf, type ReportedDevice } from '@ledger/inventory';
import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { a100, arria10 } from '../../libs/inventory/src/domain/testing/host-report.fixtures';
import { InventoryQueries } from './inventory.queries';
import { inventoryProjection } from './inventory.projection';
import { oneBatch } from '@ledger/processing/testing';
import { applyBatches } from './testing/inventory-batches';
import { type HistoryStep, recordHostHistory } from './testing/inventory-history';

const hostname = 'compute-8';
const fpga = deviceUuidOf(hostname, '0000:5e:00.0');
const deployable = deployableUuidOf(fpga, '0000:5e:00.0-region0');
const gpu = deviceUuidOf(hostname, '0000:3b:00.0');
const gpuDeployable = deployableUuidOf(gpu, `${hostname}_0000:3b:00.0`);
const setOwner = (value: string): HistoryStep => ({
  type: 'CreateAttribute',
  deployableUuid: deployable,
  key: 'owner',
  value,
  createdAt: '2026-03-05T00:00:00.000Z',
});
const withTraits = (device: ReportedDevice, traits: string[]): ReportedDevice => ({
  ...device,
  deployables: [{ ...device.deployables[0], traits }],
});

describe('inventoryProjection: attributes and the searches of the v2 API', () => {
  let db: SqlDatabase;
  let queries: InventoryQueries;
  const build = async (steps: readonly HistoryStep[]) => applyBatches(db, oneBatch(await recordHostHistory(hostname, steps)));
  const keyValues = async (deployableId: number) =>
    (await queries.listAttributes({ deployableId })).map((attribute) => [attribute.key, attribute.value, attribute.origin]);

  beforeEach(async () => {
    db = await openSqliteSqlDatabase({ file: ':memory:' });
    queries = new InventoryQueries(db);
  });
  afterEach(() => db.close());

  it('derives rc and trait<N> from the report, and lists an operator’s attributes after them', async () => {
    await build([{ report: [arria10('0000:5e:00.0', 2), a100('0000:3b:00.0')] }, setOwner('team-a')]);
    const id = numericIdOf(deployable);
    expect(await keyValues(id)).toEqual([
      ['rc', 'FPGA', 'discovered'],
      ['trait0', 'CUSTOM_FPGA_INTEL', 'discovered'],
      ['trait1', 'CUSTOM_FPGA_INTEL_PAC_ARRIA10', 'discovered'],
      ['trait2', 'OWNER_CYBORG', 'discovered'],
      ['owner', 'team-a', 'operator'],
    ]);
    expect(await queries.getAttribute(attributeUuidOf(deployable, 'rc'))).toMatchObject({ deployableUuid: deployable, deployableId: id, value: 'FPGA' });
    expect(await queries.getAttribute(attributeUuidOf(deployable, 'owner'))).toMatchObject({
      createdAt: '2026-03-05T00:00:00.000Z',
      updatedAt: '2026-03-05T00:00:00.000Z',
    });
    expect((await queries.listAttributes({ key: 'rc' })).map((attribute) => attribute.value).sort()).toEqual(['FPGA', 'PGPU']);
    expect((await queries.listAttributes({ deployableUuids: [gpuDeployable] })).map((attribute) => attribute.key)).toEqual(['rc', 'trait0', 'trait1']);
    expect((await queries.listAttributes({ deployableUuids: [gpuDeployable, deployable], key: 'owner' })).map((attribute) => attribute.value)).toEqual([
      'team-a',
    ]);
    expect(await queries.findDeployableByNumericId(id)).toMatchObject({ uuid: deployable, name: '0000:5e:00.0-region0' });
    expect(await queries.findDeployableByNumericId(id + 1)).toBeUndefined();
  });

  it('follows the report: a changed trait moves updated_at, a dropped one goes', async () => {
    const steps: HistoryStep[] = [
      { report: [arria10('0000:5e:00.0', 2)] },
      { report: [withTraits(arria10('0000:5e:00.0', 2), ['CUSTOM_FPGA_INTEL', 'CUSTOM_FPGA_XILINX'])] },
    ];
    const events = await recordHostHistory(hostname, steps);
    await applyBatches(db, oneBatch(events));
    expect(await keyValues(numericIdOf(deployable))).toEqual([
      ['rc', 'FPGA', 'discovered'],
      ['trait0', 'CUSTOM_FPGA_INTEL', 'discovered'],
      ['trait1', 'CUSTOM_FPGA_XILINX', 'discovered'],
    ]);
    const [rc, trait0, trait1] = await queries.listAttributes({ deployableUuids: [deployable] });
    expect([rc.updatedAt, trait0.updatedAt]).toEqual([rc.createdAt, trait0.createdAt]);
    expect(trait1.updatedAt).toBe(events.at(-1)!.recordedAt);
    expect(trait1.updatedAt > trait1.createdAt).toBe(true);
  });

  it('hides a deleted attribute and those of a removed deployable, and shows an operator’s again when it returns', async () => {
    const owner = attributeUuidOf(deployable, 'owner');
    await build([{ report: [arria10('0000:5e:00.0', 2)] }, setOwner('team-a'), { type: 'DeleteAttribute', uuid: owner }]);
    expect(await queries.getAttribute(owner)).toBeUndefined();

    const gone = await openSqliteSqlDatabase({ file: ':memory:' });
    try {
      const steps: HistoryStep[] = [{ report: [arria10('0000:5e:00.0', 2)] }, setOwner('team-b'), { report: [] }];
      await applyBatches(gone, oneBatch(await recordHostHistory(hostname, steps)));
      const after = new InventoryQueries(gone);
      expect(await after.getAttribute(owner)).toBeUndefined();
      expect(await after.listAttributes()).toEqual([]);

      await applyBatches(gone, oneBatch((await recordHostHistory(hostname, [...steps, { report: [arria10('0000:5e:00.0', 2)] }])).slice(-1)));
      expect(await after.getAttribute(owner)).toMatchObject({ value: 'team-b', origin: 'operator' });
    } finally {
      await gone.close();
    }
  });

  it('searches devices and deployables unpaged, sorted and limited, without removed devices', async () => {
    await build([
      { report: [arria10('0000:5e:00.0', 2), a100('0000:3b:00.0'), a100('0000:3c:00.0')] },
      { report: [arria10('0000:5e:00.0', 2), a100('0000:3b:00.0')] },
    ]);
    expect((await queries.searchDevices()).map((device) => device.pciAddress).sort()).toEqual(['0000:3b:00.0', '0000:5e:00.0']);
    expect((await queries.searchDevices({ vendor: '10DE' })).map((device) => device.uuid)).toEqual([gpu]);
    expect((await queries.searchDevices({ type: 'FPGA', hostname })).map((device) => device.uuid)).toEqual([fpga]);
    expect(await queries.searchDevices({ hostname: 'elsewhere' })).toEqual([]);
    const byModel = await queries.searchDevices({ sortBy: 'model', sortDirection: 'desc' });
    expect(byModel.map((device) => device.model)).toEqual(['NVIDIA A100 80GB PCIe', 'Intel PAC Arria 10 GX']);
    expect(await queries.searchDevices({ sortBy: 'model', limit: 1 })).toEqual([byModel[1]]);

    expect((await queries.searchDeployables({ name: '0000:5e:00.0-region0' })).map((found) => found.uuid)).toEqual([deployable]);
    expect((await queries.searchDeployables({ sortBy: 'count', sortDirection: 'desc' })).map((found) => found.count)).toEqual([2, 1]);
  });

  it('refuses a bad limit or sort with INVENTORY.QUERY_INVALID', async () => {
    await expect(queries.searchDevices({ limit: 0 })).rejects.toMatchObject({ code: 'INVENTORY.QUERY_INVALID', status: 400 });
    await expect(queries.searchDeployables({ limit: 1.5 })).rejects.toMatchObject({ code: 'INVENTORY.QUERY_INVALID' });
    await expect(queries.searchDevices({ sortBy: 'board' as never })).rejects.toMatchObject({ code: 'INVENTORY.QUERY_INVALID' });
    await expect(queries.searchDevices({ sortDirection: 'up' as never })).rejects.toMatchObject({ code: 'INVENTORY.QUERY_INVALID' });
  });

  it('replaces tables an older schema created, whose columns it lacks', async () => {
    await db.run('CREATE TABLE inv_attach_handles (uuid TEXT PRIMARY KEY, deployable_uuid TEXT NOT NULL, in_use INTEGER NOT NULL)');
    await db.run("INSERT INTO inv_attach_handles VALUES ('stale', 'stale', 0)");
    await build([{ report: [arria10('0000:5e:00.0', 2)] }]);
    expect(await queries.listAttachHandlesOfDeployable(deployable)).toHaveLength(2);
    expect(await db.all('SELECT uuid FROM inv_attach_handles WHERE uuid = $1', ['stale'])).toEqual([]);
    await db.transaction((tx) => inventoryProjection.setup(tx));
    expect(await queries.listAttachHandlesOfDeployable(deployable)).toHaveLength(2);
  });
});
