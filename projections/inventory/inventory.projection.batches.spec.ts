import type { RecordedEvent } from '@ledger/eventstore';
import { attachHandleUuidOf, deployableUuidOf, deviceUuidOf, type ReportedDevice } from '@ledger/inventory';
import { a100, arria10, t4vgpu, x710 } from '../../libs/inventory/src/domain/testing/host-report.fixtures';
import type { InventorySnapshot } from './inventory.snapshot';
import { buildInventory, everyBatchTwice, oneBatch, onePerBatch } from './testing/inventory-batches';
import { recordHostHistory } from './testing/inventory-history';

/**
 * Builds the read model one event per batch (how the projection applied
 * events before it took batches) and expects the same tables from: the
 * events in one batch; that batch twice; two batches split at every point,
 * so each event meets rows both in memory and from the database; and two
 * overlapping batches, where the second redelivers the end of the first.
 */
async function expectBatchingChangesNothing(events: readonly RecordedEvent[]): Promise<InventorySnapshot> {
  const expected = await buildInventory(onePerBatch(events));
  expect(await buildInventory(oneBatch(events))).toEqual(expected);
  expect(await buildInventory(everyBatchTwice(oneBatch(events)))).toEqual(expected);
  for (let split = 1; split < events.length; split++) {
    expect(await buildInventory([events.slice(0, split), events.slice(split)])).toEqual(expected);
    expect(await buildInventory([events.slice(0, split + 1), events.slice(split - 1)])).toEqual(expected);
  }
  return expected;
}

const hostname = 'compute-9';
const gpu = deviceUuidOf(hostname, '0000:3b:00.0');
const typesOf = (events: readonly RecordedEvent[]) => events.map((event) => event.type.replace('inventory.', ''));
const deviceRow = (snapshot: InventorySnapshot, uuid: string) => snapshot.inv_devices.find((row) => row.uuid === uuid);
const rowsOfDevice = (rows: readonly Record<string, unknown>[], uuid: string) => rows.filter((row) => row.device_uuid === uuid);

describe('inventoryProjection in batches equals one event per batch', () => {
  it('when a batch discovers, removes and rediscovers a device', async () => {
    const events = await recordHostHistory(hostname, [
      { report: [a100('0000:3b:00.0'), x710('0000:af:00.0')] },
      { report: [x710('0000:af:00.0')] },
      { report: [a100('0000:3b:00.0'), x710('0000:af:00.0')] },
    ]);
    expect(typesOf(events)).toEqual(['HostRegistered', 'DeviceDiscovered', 'DeviceDiscovered', 'DeviceRemoved', 'DeviceDiscovered']);

    const snapshot = await expectBatchingChangesNothing(events);
    const rediscovered = events[4];
    expect(deviceRow(snapshot, gpu)).toMatchObject({ removed: 0, status: 'enabled', created_at: rediscovered.recordedAt });
    expect(snapshot.inv_hosts).toEqual([expect.objectContaining({ hostname, device_count: 2, last_report_at: rediscovered.recordedAt })]);
    expect(rowsOfDevice(snapshot.inv_deployables, gpu)).toEqual([expect.objectContaining({ created_at: rediscovered.recordedAt })]);
    expect(rowsOfDevice(snapshot.inv_attach_handles, gpu)).toHaveLength(1);
  });

  it('when a batch disables a device, then removes and rediscovers it', async () => {
    const events = await recordHostHistory(hostname, [
      { report: [a100('0000:3b:00.0')] },
      { type: 'DisableDevice', deviceUuid: gpu, reason: 'fan failure' },
      { report: [] },
      { report: [a100('0000:3b:00.0')] },
    ]);
    expect(typesOf(events)).toEqual(['HostRegistered', 'DeviceDiscovered', 'DeviceDisabled', 'DeviceRemoved', 'DeviceDiscovered']);

    const snapshot = await expectBatchingChangesNothing(events);
    expect(deviceRow(snapshot, gpu)).toMatchObject({
      removed: 0,
      status: 'maintaining',
      disabled_reason: 'fan failure',
      maintenance_version: 1,
      created_at: events[4].recordedAt,
    });
    expect(snapshot.inv_hosts[0]).toMatchObject({ device_count: 1 });
  });

  it('when a batch removes a disabled device and the operator enables it before it comes back', async () => {
    const events = await recordHostHistory(hostname, [
      { report: [a100('0000:3b:00.0')] },
      { type: 'DisableDevice', deviceUuid: gpu, reason: null },
      { report: [] },
      { type: 'EnableDevice', deviceUuid: gpu },
      { report: [a100('0000:3b:00.0')] },
    ]);
    const snapshot = await expectBatchingChangesNothing(events);
    expect(deviceRow(snapshot, gpu)).toMatchObject({ removed: 0, status: 'enabled', maintenance_version: 2 });
  });

  it('when a batch changes deployables: counts, handles, physical networks, a renamed deployable', async () => {
    const fpga = deviceUuidOf(hostname, '0000:5e:00.0');
    const vgpu = deviceUuidOf(hostname, '0000:d8:00.0');
    const renamed = t4vgpu('0000:d8:00.0', 2);
    const events = await recordHostHistory(hostname, [
      { report: [arria10('0000:5e:00.0', 3), t4vgpu('0000:d8:00.0', 4), x710('0000:af:00.0')] },
      {
        report: [
          arria10('0000:5e:00.0', 2),
          { ...renamed, deployables: [{ ...renamed.deployables[0], name: `${hostname}_t4` }] },
          x710('0000:af:00.0', 'physnet2'),
        ],
      },
      { report: [arria10('0000:5e:00.0', 4), t4vgpu('0000:d8:00.0', 4), x710('0000:af:00.0', 'physnet2')] },
    ]);
    const changes = events.filter((event) => event.type === 'inventory.DeviceChanged');
    const changedFields = changes.flatMap((event) => (event.data as { changedFields: string[] }).changedFields);
    expect(changedFields).toEqual(expect.arrayContaining(['deployables', 'deployables.count', 'deployables.traits']));
    expect(typesOf(events)).toEqual(expect.arrayContaining(['AttachHandlesAdded', 'AttachHandlesRemoved']));

    const snapshot = await expectBatchingChangesNothing(events);
    expect(rowsOfDevice(snapshot.inv_deployables, fpga)).toEqual([expect.objectContaining({ count: 4 })]);
    expect(rowsOfDevice(snapshot.inv_attach_handles, fpga)).toHaveLength(4);
    expect(rowsOfDevice(snapshot.inv_deployables, vgpu)).toEqual([expect.objectContaining({ name: 'vgpu_0000:d8:00.0', count: 4 })]);
    expect(rowsOfDevice(snapshot.inv_attach_handles, vgpu)).toHaveLength(4);
    const nic = deviceUuidOf(hostname, '0000:af:00.0');
    expect(rowsOfDevice(snapshot.inv_attach_handles, nic).map((row) => row.physical_network)).toEqual(['physnet2', 'physnet2']);
  });

  it('when a batch changes one deployable of a device and leaves the other as it was', async () => {
    const twoRegions = (vfs: number): ReportedDevice => {
      const fpga = arria10('0000:5e:00.0', vfs);
      const second = { ...fpga.deployables[0], name: '0000:5e:00.0-region1', count: 1, attachHandles: [{ kind: 'VF' as const, address: '0000:5e:01.1' }] };
      return { ...fpga, deployables: [fpga.deployables[0], second] };
    };
    const events = await recordHostHistory(hostname, [{ report: [twoRegions(2)] }, { report: [twoRegions(3)] }]);
    const fpga = deviceUuidOf(hostname, '0000:5e:00.0');

    const snapshot = await expectBatchingChangesNothing(events);
    const [region0, region1] = rowsOfDevice(snapshot.inv_deployables, fpga).sort((a, b) => String(a.name).localeCompare(String(b.name)));
    expect(region0).toMatchObject({ count: 3, updated_at: events.at(-1)!.recordedAt });
    expect(region1).toMatchObject({ count: 1, updated_at: region1.created_at, stream_version: region0.stream_version });
  });

  it('on a log the deciders never write: handles recorded before their deployable go with the device', async () => {
    const [registered, discovered, removed] = await recordHostHistory(hostname, [{ report: [a100('0000:3b:00.0')] }, { report: [] }]);
    const deployable = deployableUuidOf(gpu, `${hostname}_0000:3b:00.0`);
    const early: RecordedEvent = {
      ...discovered,
      type: 'inventory.AttachHandlesAdded',
      data: {
        hostname,
        deviceUuid: gpu,
        deployableUuid: deployable,
        handles: [{ uuid: attachHandleUuidOf(deployable, 'VF/0000:3b:00.7'), kind: 'VF', address: '0000:3b:00.7' }],
      },
    };
    const renumber = (event: RecordedEvent, at: number): RecordedEvent => ({ ...event, version: at, position: at });
    const events = [registered, early, discovered, removed].map((event, index) => renumber(event, index + 1));

    const snapshot = await expectBatchingChangesNothing(events);
    expect(snapshot.inv_attach_handles).toEqual([]);
    expect(snapshot.inv_deployables).toEqual([]);
  });
});
