import type { RecordedEvent } from '@ledger/eventstore';
import { attachHandleUuidOf, deployableUuidOf, deviceUuidOf, resourceProviderUuidOf } from '@ledger/inventory';
import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { arria10 } from '../../libs/inventory/src/domain/testing/host-report.fixtures';
import { InventoryQueries } from './inventory.queries';
import { oneBatch } from '@ledger/processing/testing';
import { applyBatches } from './testing/inventory-batches';
import { type HistoryStep, recordHostHistory } from './testing/inventory-history';

const hostname = 'compute-7';
const fpga = deviceUuidOf(hostname, '0000:5e:00.0');
const deployable = deployableUuidOf(fpga, '0000:5e:00.0-region0');
const rpUuid = resourceProviderUuidOf('0000:5e:00.0-region0');
const [h1, h2, h3] = ['0000:5e:00.1', '0000:5e:00.2', '0000:5e:00.3'].map((address) => attachHandleUuidOf(deployable, `VF/${address}`));
const arqA = '01900000-0000-7000-8000-00000000000a';
const arqB = '01900000-0000-7000-8000-00000000000b';
const claim = (arqUuid: string): HistoryStep => ({
  type: 'ClaimAttachHandle',
  deviceUuid: fpga,
  deployableUuid: deployable,
  arqUuid,
  candidates: [h1, h2, h3],
});

describe('inventoryProjection: attach handle claims and the queries binding reads', () => {
  let db: SqlDatabase;
  let queries: InventoryQueries;
  const handles = async () =>
    (await queries.listAttachHandlesOfDeployable(deployable)).map((handle) => [handle.address, handle.inUse, handle.claimedBy]);

  beforeEach(async () => {
    db = await openSqliteSqlDatabase({ file: ':memory:' });
    queries = new InventoryQueries(db);
  });
  afterEach(() => db.close());

  it('marks claimed handles, and finds the deployable by its resource provider with its device status', async () => {
    await applyBatches(db, oneBatch(await recordHostHistory(hostname, [{ report: [arria10('0000:5e:00.0', 3)] }, claim(arqA)])));

    expect(await handles()).toEqual([
      ['0000:5e:00.1', true, arqA],
      ['0000:5e:00.2', false, null],
      ['0000:5e:00.3', false, null],
    ]);
    expect(await queries.listClaims()).toEqual([{ handleUuid: h1, arqUuid: arqA, deviceUuid: fpga, deployableUuid: deployable }]);
    expect(await queries.findDeployableByRpUuid(rpUuid.toUpperCase())).toEqual({
      uuid: deployable,
      deviceUuid: fpga,
      hostname,
      name: '0000:5e:00.0-region0',
      rpUuid,
      resourceClass: 'FPGA',
      count: 3,
      traits: ['CUSTOM_FPGA_INTEL', 'CUSTOM_FPGA_INTEL_PAC_ARRIA10', 'OWNER_CYBORG'],
      driverName: 'intel_fpga_driver',
      bitstreamId: null,
      functionId: null,
      programmedAt: null,
      deviceStatus: 'enabled',
      deviceHealth: 'ok',
      deviceHealthReason: null,
      agentLost: false,
      deviceCapacity: null,
    });
    expect(await queries.findDeployableByRpUuid('00000000-0000-3000-8000-000000000000')).toBeUndefined();
  });

  it('keeps the claim of a handle a report drops, and shows it again when the handle comes back', async () => {
    const events = await recordHostHistory(hostname, [
      { report: [arria10('0000:5e:00.0', 3)] },
      claim(arqA),
      claim(arqB),
      { report: [arria10('0000:5e:00.0', 1)] },
    ]);
    await applyBatches(db, oneBatch(events));
    expect(await handles()).toEqual([['0000:5e:00.1', true, arqA]]);
    expect((await queries.listClaims()).map((held) => [held.handleUuid, held.arqUuid])).toEqual(
      [
        [h1, arqA],
        [h2, arqB],
      ].sort(),
    );

    const back = await recordHostHistory(hostname, [
      { report: [arria10('0000:5e:00.0', 3)] },
      claim(arqA),
      claim(arqB),
      { report: [arria10('0000:5e:00.0', 1)] },
      { report: [arria10('0000:5e:00.0', 3)] },
    ]);
    await applyBatches(db, oneBatch(back.slice(events.length)));
    expect(await handles()).toEqual([
      ['0000:5e:00.1', true, arqA],
      ['0000:5e:00.2', true, arqB],
      ['0000:5e:00.3', false, null],
    ]);
  });

  it('ignores a release by another request than the holder, and a redelivered claim after its release', async () => {
    const events = await recordHostHistory(hostname, [
      { report: [arria10('0000:5e:00.0', 3)] },
      claim(arqA),
      { type: 'ReleaseAttachHandle', deviceUuid: fpga, arqUuid: arqA },
    ]);
    const [claimed, released] = events.filter((event) => event.stream === `device-${fpga}`);
    const foreignRelease: RecordedEvent = { ...released, data: { ...(released.data as object), arqUuid: arqB } };

    await applyBatches(db, [events.slice(0, -1), [foreignRelease]]);
    expect(await handles()).toContainEqual(['0000:5e:00.1', true, arqA]);
    expect(await queries.listClaims()).toHaveLength(1);

    const fresh = await openSqliteSqlDatabase({ file: ':memory:' });
    try {
      const replayed = new InventoryQueries(fresh);
      await applyBatches(fresh, [events, [claimed], events]);
      expect((await replayed.listAttachHandlesOfDeployable(deployable)).every((handle) => !handle.inUse && handle.claimedBy === null)).toBe(true);
      expect(await replayed.listClaims()).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('tells binding the device has failed and its host’s agent is lost, and that both are over once they are', async () => {
    const lost = { type: 'MarkAgentLost', hostname, lastSeenAt: '2026-03-01T00:00:00.000Z', detectedAt: '2026-03-01T00:01:00.000Z' } as const;
    const failed = { type: 'RecordDeviceHealth', deviceUuid: fpga, health: 'failed', reason: 'Xid 79', observedAt: '2026-03-01T00:00:30.000Z' } as const;
    const sick: HistoryStep[] = [{ report: [arria10('0000:5e:00.0', 3)] }, failed, lost];
    await applyBatches(db, oneBatch(await recordHostHistory(hostname, sick)));
    expect(await queries.findDeployableByRpUuid(rpUuid)).toMatchObject({ deviceHealth: 'failed', deviceHealthReason: 'Xid 79', agentLost: true });

    const healed: HistoryStep[] = [...sick, { ...failed, health: 'ok', reason: null }, { type: 'RecordAgentSeen', hostname, seenAt: '2026-03-01T00:02:00.000Z' }];
    await applyBatches(db, oneBatch(await recordHostHistory(hostname, healed)));
    expect(await queries.findDeployableByRpUuid(rpUuid)).toMatchObject({ deviceHealth: 'ok', agentLost: false });
  });

  it('tells binding the device is in maintenance, and finds nothing on a removed device', async () => {
    await applyBatches(
      db,
      oneBatch(await recordHostHistory(hostname, [{ report: [arria10('0000:5e:00.0', 3)] }, { type: 'DisableDevice', deviceUuid: fpga, reason: null }])),
    );
    expect(await queries.findDeployableByRpUuid(rpUuid)).toMatchObject({ deviceStatus: 'maintaining' });

    const removed = await recordHostHistory(hostname, [{ report: [arria10('0000:5e:00.0', 3)] }, claim(arqA), { report: [] }]);
    const other = await openSqliteSqlDatabase({ file: ':memory:' });
    try {
      await applyBatches(other, oneBatch(removed));
      const afterRemoval = new InventoryQueries(other);
      expect(await afterRemoval.findDeployableByRpUuid(rpUuid)).toBeUndefined();
      expect(await afterRemoval.listAttachHandlesOfDeployable(deployable)).toEqual([]);
      expect(await afterRemoval.listClaims()).toEqual([{ handleUuid: h1, arqUuid: arqA, deviceUuid: fpga, deployableUuid: deployable }]);
    } finally {
      await other.close();
    }
  });
});
