import type { RecordedEvent } from '@ledger/eventstore';
import { attachHandleUuidOf, attributeUuidOf, deployableUuidOf, deviceUuidOf, type ReportedDevice } from '@ledger/inventory';
import { a100, arria10, t4vgpu, x710 } from '../../libs/inventory/src/domain/testing/host-report.fixtures';
import type { InventorySnapshot } from './inventory.snapshot';
import { expectBatchingChangesNothing } from './testing/inventory-batches';
import { recordHostHistory } from './testing/inventory-history';

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
      device_version: 1,
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
    expect(deviceRow(snapshot, gpu)).toMatchObject({ removed: 0, status: 'enabled', device_version: 2 });
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

  it('when a batch claims handles, a report drops and brings back a claimed one, and claims are released', async () => {
    const fpga = deviceUuidOf(hostname, '0000:5e:00.0');
    const deployable = deployableUuidOf(fpga, '0000:5e:00.0-region0');
    const [h1, h2, h3] = ['0000:5e:00.1', '0000:5e:00.2', '0000:5e:00.3'].map((address) => attachHandleUuidOf(deployable, `VF/${address}`));
    const [arqA, arqB] = ['01900000-0000-7000-8000-00000000000a', '01900000-0000-7000-8000-00000000000b'];
    const claim = (arqUuid: string) =>
      ({ type: 'ClaimAttachHandle', deviceUuid: fpga, deployableUuid: deployable, arqUuid, candidates: [h1, h2, h3] }) as const;
    const events = await recordHostHistory(hostname, [
      { report: [arria10('0000:5e:00.0', 3)] },
      claim(arqA),
      claim(arqB),
      { report: [arria10('0000:5e:00.0', 1)] },
      { report: [arria10('0000:5e:00.0', 3)] },
      { report: [] },
      { report: [arria10('0000:5e:00.0', 3)] },
      { type: 'ReleaseAttachHandle', deviceUuid: fpga, arqUuid: arqB },
      claim(arqB),
      { type: 'ReleaseAttachHandle', deviceUuid: fpga, arqUuid: arqA },
    ]);
    expect(typesOf(events).filter((type) => type.startsWith('AttachHandle'))).toEqual([
      'AttachHandleClaimed',
      'AttachHandleClaimed',
      'AttachHandlesRemoved',
      'AttachHandlesAdded',
      'AttachHandleReleased',
      'AttachHandleClaimed',
      'AttachHandleReleased',
    ]);

    const snapshot = await expectBatchingChangesNothing(events);
    const handles = Object.fromEntries(rowsOfDevice(snapshot.inv_attach_handles, fpga).map((row) => [row.uuid, [row.in_use, row.claimed_by]]));
    // h2 was claimed while the report dropped it and came back claimed; B's second claim took it again (A still held h1).
    expect(handles).toEqual({ [h1]: [0, null], [h2]: [1, arqB], [h3]: [0, null] });
    expect(snapshot.inv_handle_claims).toEqual([{ handle_uuid: h2, arq_uuid: arqB, device_uuid: fpga, deployable_uuid: deployable }]);
    expect(deviceRow(snapshot, fpga)).toMatchObject({ device_version: 5, status: 'enabled', removed: 0 });
  });

  it('when a batch sets and deletes attributes while reports change the discovered ones and remove the device', async () => {
    const fpga = deviceUuidOf(hostname, '0000:5e:00.0');
    const deployable = deployableUuidOf(fpga, '0000:5e:00.0-region0');
    const owner = attributeUuidOf(deployable, 'owner');
    const create = (value: string, createdAt: string) => ({ type: 'CreateAttribute', deployableUuid: deployable, key: 'owner', value, createdAt }) as const;
    const fewerTraits = { ...arria10('0000:5e:00.0', 2), deployables: [{ ...arria10('0000:5e:00.0', 2).deployables[0], traits: ['CUSTOM_FPGA_INTEL'] }] };
    const events = await recordHostHistory(hostname, [
      { report: [arria10('0000:5e:00.0', 2)] },
      create('team-a', '2026-03-02T00:00:00.000Z'),
      { report: [fewerTraits] },
      { type: 'DeleteAttribute', uuid: owner },
      create('team-b', '2026-03-03T00:00:00.000Z'),
      { report: [] },
      { report: [a100('0000:3b:00.0')] },
    ]);

    const snapshot = await expectBatchingChangesNothing(events);
    // The FPGA is gone: its discovered attributes with it; the operator's stays (hidden by the queries) for its return.
    expect(snapshot.inv_attributes.filter((row) => row.deployable_uuid === deployable)).toEqual([
      expect.objectContaining({ uuid: owner, key: 'owner', value: 'team-b', origin: 'operator', deleted: 0, stream_version: 3 }),
    ]);
    expect(snapshot.inv_attributes.filter((row) => row.origin === 'discovered').map((row) => [row.key, row.value])).toEqual(
      expect.arrayContaining([
        ['rc', 'PGPU'],
        ['trait0', expect.any(String)],
      ]),
    );
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
