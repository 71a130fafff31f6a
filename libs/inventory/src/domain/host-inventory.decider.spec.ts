import { deciderSpec } from '@ledger/eventstore/testing';
import { a100, arria10, hostReport, t4vgpu, x710 } from './testing/host-report.fixtures';
import type { DeviceSnapshot } from './device-snapshot';
import { hostInventoryDecider, type ReportHost } from './host-inventory.decider';
import type { HostReport, ReportedDevice } from './host-report';
import type { HostInventoryEvent } from './inventory.events';
import { deviceUuidOf } from './identity';

const HOST = 'compute-1';
const AT = '2026-03-01T10:00:00.000Z';
const spec = deciderSpec(hostInventoryDecider);
const report = (devices: readonly ReportedDevice[], hostname = HOST): ReportHost => ({
  type: 'ReportHost',
  report: hostReport(hostname, devices),
  receivedAt: AT,
});
/** The events of accepting `devices` as the host's first report. */
const firstReport = (devices: readonly ReportedDevice[]): HostInventoryEvent[] => [
  ...spec.given([]).when(report(devices)).events(),
];
const discovered = (events: readonly HostInventoryEvent[], index = 0): DeviceSnapshot =>
  events.filter((event) => event.type === 'inventory.DeviceDiscovered').map((event) => event.data.device)[index];

describe('hostInventoryDecider', () => {
  describe('registration and discovery', () => {
    it('registers a host on its first report, even without devices', () => {
      spec
        .given([])
        .when(report([]))
        .then([{ type: 'inventory.HostRegistered', data: { hostname: HOST, registeredAt: AT } }]);
    });

    it('discovers every device with derived uuids, in PCI address order', () => {
      const events = spec.given([]).when(report([x710(), a100()])).events();
      expect(events.map((event) => event.type)).toEqual([
        'inventory.HostRegistered',
        'inventory.DeviceDiscovered',
        'inventory.DeviceDiscovered',
      ]);
      const gpu = discovered(events, 0);
      expect(gpu).toEqual({
        uuid: '17107e20-ed18-50ad-92a6-e82078f0e0f2',
        type: 'GPU',
        vendorId: '10de',
        productId: '20b5',
        subsystemVendorId: '10de',
        subsystemProductId: '1533',
        model: 'NVIDIA A100 80GB PCIe',
        pciAddress: '0000:3b:00.0',
        boardInfo: { serial: '1652421000123', vbios: '92.00.36.00.02' },
        vendorBoardInfo: undefined,
        driver: 'vfio-pci',
        numaNode: 0,
        capacity: { memoryGiB: 80 },
        deployables: [
          {
            uuid: '97f3fd9f-3fd5-5ed8-98c0-d40ec1caa82e',
            name: 'compute-1_0000:3b:00.0',
            rpUuid: '4dc17aab-79d3-3f4f-b61f-3cc3f3cb0ef8',
            resourceClass: 'PGPU',
            count: 1,
            traits: ['CUSTOM_NVIDIA_20B5', 'OWNER_CYBORG'],
            driverName: 'nvidia_gpu_driver',
            attachHandles: [{ uuid: 'daf10898-a609-596b-b5c8-9c35fb79a64a', kind: 'PCI', address: '0000:3b:00.0' }],
          },
        ],
      });
      expect(discovered(events, 1).pciAddress).toBe('0000:af:00.0');
    });

    it('derives the same identities from every report and different ones on another host', () => {
      const once = discovered(firstReport([arria10()]));
      const again = discovered(firstReport([arria10()]));
      expect(again).toEqual(once);
      const elsewhere = discovered([...spec.given([]).when(report([arria10()], 'compute-2')).events()]);
      expect(elsewhere.uuid).toBe(deviceUuidOf('compute-2', '0000:5e:00.0'));
      expect(elsewhere.uuid).not.toBe(once.uuid);
      expect(elsewhere.deployables[0].attachHandles[0].uuid).not.toBe(once.deployables[0].attachHandles[0].uuid);
    });

    it('numbers MDEV slots into distinct handles', () => {
      const handles = discovered(firstReport([t4vgpu()])).deployables[0].attachHandles;
      expect(handles.map((handle) => handle.slot)).toEqual([0, 1, 2, 3]);
      expect(new Set(handles.map((handle) => handle.uuid)).size).toBe(4);
    });
  });

  describe('unchanged reports', () => {
    it('appends nothing for the same report', () => {
      const devices = [a100(), arria10(), x710(), t4vgpu()];
      spec.given(firstReport(devices)).when(report(devices)).then([]);
    });

    it('appends nothing for an empty host that reports empty again', () => {
      spec.given(firstReport([])).when(report([])).then([]);
    });

    it('appends nothing when only order, case and spelling of absent members differ', () => {
      const gpu = a100();
      const reordered: ReportedDevice = {
        ...gpu,
        pciAddress: '0000:3B:00.0',
        vendorId: '10DE',
        boardInfo: { vbios: '92.00.36.00.02', serial: '1652421000123' },
        vendorBoardInfo: null as unknown as undefined,
        deployables: [
          {
            ...gpu.deployables[0],
            traits: ['OWNER_CYBORG', 'CUSTOM_NVIDIA_20B5', 'OWNER_CYBORG'],
            attachHandles: [{ kind: 'PCI', address: '0000:3B:00.0' }],
          },
        ],
      };
      spec.given(firstReport([x710(), gpu])).when(report([reordered, x710()])).then([]);
    });

    it('recognises an unchanged report after the events went through JSON (as a store returns them)', () => {
      const devices = [a100(), t4vgpu(), x710()];
      const stored = JSON.parse(JSON.stringify(firstReport(devices))) as HostInventoryEvent[];
      spec.given(stored).when(report(devices)).then([]);
    });
  });

  describe('changes', () => {
    const gpu = a100();
    const gpuUuid = deviceUuidOf(HOST, gpu.pciAddress);
    const changedFieldsFor = (changed: ReportedDevice): readonly string[] => {
      const events = spec.given(firstReport([gpu])).when(report([changed])).events();
      expect(events.map((event) => event.type)).toEqual(['inventory.DeviceChanged']);
      const event = events[0];
      if (event.type !== 'inventory.DeviceChanged') throw new Error('unreachable');
      expect(event.data.deviceUuid).toBe(gpuUuid);
      expect(event.data.description.pciAddress).toBe(gpu.pciAddress);
      expect(event.data.description.deployables[0]).not.toHaveProperty('attachHandles');
      return event.data.changedFields;
    };
    const withDeployable = (change: Partial<ReportedDevice['deployables'][number]>): ReportedDevice => ({
      ...gpu,
      deployables: [{ ...gpu.deployables[0], ...change }],
    });

    it.each<[string, ReportedDevice, string[]]>([
      ['type', { ...gpu, type: 'NPU' }, ['type']],
      ['product id', { ...gpu, productId: '20b2' }, ['productId']],
      ['subsystem ids', { ...gpu, subsystemVendorId: undefined, subsystemProductId: '1534' }, ['subsystemVendorId', 'subsystemProductId']],
      ['model', { ...gpu, model: 'NVIDIA A100-PCIE-80GB' }, ['model']],
      ['board info', { ...gpu, boardInfo: { ...gpu.boardInfo, vbios: '92.00.45.00.03' } }, ['boardInfo']],
      ['vendor board info', { ...gpu, vendorBoardInfo: 'ecc=on' }, ['vendorBoardInfo']],
      ['driver', { ...gpu, driver: null }, ['driver']],
      ['NUMA node', { ...gpu, numaNode: 1 }, ['numaNode']],
      ['capacity', { ...gpu, capacity: { memoryGiB: 40 } }, ['capacity']],
      ['resource class', withDeployable({ resourceClass: 'CUSTOM_GPU' }), ['deployables.resourceClass']],
      ['count', withDeployable({ count: 2 }), ['deployables.count']],
      ['traits', withDeployable({ traits: ['OWNER_CYBORG'] }), ['deployables.traits']],
      ['deployable driver', withDeployable({ driverName: undefined }), ['deployables.driverName']],
    ])('records a change of %s', (_name, changed, fields) => {
      expect(changedFieldsFor(changed)).toEqual(fields);
    });

    it('renames a deployable as one that vanished and one that appeared, with the new one’s handles', () => {
      const renamed = withDeployable({ name: 'gpu-0' });
      const events = spec.given(firstReport([gpu])).when(report([renamed])).events();
      expect(events.map((event) => event.type)).toEqual(['inventory.DeviceChanged', 'inventory.AttachHandlesAdded']);
      const [changed, added] = events;
      if (changed.type !== 'inventory.DeviceChanged' || added.type !== 'inventory.AttachHandlesAdded') throw new Error('unreachable');
      expect(changed.data.changedFields).toEqual(['deployables']);
      expect(changed.data.description.deployables.map((deployable) => deployable.name)).toEqual(['gpu-0']);
      expect(added.data.deployableUuid).toBe(changed.data.description.deployables[0].uuid);
      expect(added.data.handles).toHaveLength(1);
    });

    it('removes a deployable together with its handles', () => {
      const twoDeployables: ReportedDevice = {
        ...gpu,
        deployables: [...gpu.deployables, { ...t4vgpu(gpu.pciAddress).deployables[0], name: 'vgpu' }],
      };
      const given = firstReport([twoDeployables]);
      const events = spec.given(given).when(report([gpu])).then([
        {
          type: 'inventory.DeviceChanged',
          data: {
            hostname: HOST,
            deviceUuid: gpuUuid,
            description: expect.objectContaining({ deployables: [expect.objectContaining({ name: 'compute-1_0000:3b:00.0' })] }),
            changedFields: ['deployables'],
          },
        },
      ]);
      const after = spec.given([...given, ...events]).state;
      expect(after.devices.get(gpuUuid)!.snapshot.deployables).toHaveLength(1);
      spec.given([...given, ...events]).when(report([gpu])).then([]);
    });

    it('adds and removes attach handles', () => {
      const given = firstReport([arria10('0000:5e:00.0', 3)]);
      const deployable = discovered(given).deployables[0];
      const events = spec.given(given).when(report([arria10('0000:5e:00.0', 2)])).events();
      expect(events).toEqual([
        expect.objectContaining({ type: 'inventory.DeviceChanged', data: expect.objectContaining({ changedFields: ['deployables.count'] }) }),
        {
          type: 'inventory.AttachHandlesRemoved',
          data: {
            hostname: HOST,
            deviceUuid: deviceUuidOf(HOST, '0000:5e:00.0'),
            deployableUuid: deployable.uuid,
            handleUuids: [deployable.attachHandles[2].uuid],
          },
        },
      ]);
      const grown = spec.given([...given, ...events]).when(report([arria10('0000:5e:00.0', 3)])).events();
      expect(grown[1]).toEqual({
        type: 'inventory.AttachHandlesAdded',
        data: { hostname: HOST, deviceUuid: deviceUuidOf(HOST, '0000:5e:00.0'), deployableUuid: deployable.uuid, handles: [deployable.attachHandles[2]] },
      });
    });

    it('re-adds a handle under the same uuid when its physical network changes', () => {
      const given = firstReport([x710()]);
      const [first, second] = discovered(given).deployables[0].attachHandles;
      const moved = x710('0000:af:00.0', 'physnet1');
      const remapped: ReportedDevice = {
        ...moved,
        deployables: [{ ...moved.deployables[0], attachHandles: [moved.deployables[0].attachHandles[0], { ...moved.deployables[0].attachHandles[1], physicalNetwork: 'physnet2' }] }],
      };
      const events = spec.given(given).when(report([remapped])).events();
      expect(events).toEqual([
        expect.objectContaining({ type: 'inventory.AttachHandlesRemoved', data: expect.objectContaining({ handleUuids: [second.uuid] }) }),
        expect.objectContaining({
          type: 'inventory.AttachHandlesAdded',
          data: expect.objectContaining({ handles: [{ ...second, physicalNetwork: 'physnet2' }] }),
        }),
      ]);
      expect(first.uuid).not.toBe(second.uuid);
      spec.given([...given, ...events]).when(report([remapped])).then([]);
    });

    it('removes a device that is no longer reported', () => {
      spec
        .given(firstReport([gpu, x710()]))
        .when(report([x710()]))
        .then([{ type: 'inventory.DeviceRemoved', data: { hostname: HOST, deviceUuid: gpuUuid } }]);
    });

    it('orders removals, discoveries and changes by PCI address', () => {
      const events = spec
        .given(firstReport([a100('0000:3b:00.0'), arria10('0000:5e:00.0'), x710('0000:af:00.0')]))
        .when(report([x710('0000:af:00.0', 'physnet9'), a100('0000:18:00.0'), { ...arria10('0000:5e:00.0'), driver: 'vfio-pci' }]))
        .events();
      expect(events.map((event) => event.type)).toEqual([
        'inventory.DeviceDiscovered', // 0000:18
        'inventory.DeviceRemoved', // 0000:3b
        'inventory.DeviceChanged', // 0000:5e
        'inventory.DeviceChanged', // 0000:af (traits)
        'inventory.AttachHandlesRemoved',
        'inventory.AttachHandlesAdded',
      ]);
    });

    it('converges: after any transition, the same report again appends nothing', () => {
      const reports: ReportedDevice[][] = [
        [],
        [a100()],
        [a100(), arria10()],
        [arria10('0000:5e:00.0', 4), x710()],
        [{ ...a100(), deployables: [] }, t4vgpu()],
        [t4vgpu('0000:d8:00.0', 2), x710('0000:af:00.0', 'physnet2')],
      ];
      for (const from of reports) {
        for (const to of reports) {
          const given = firstReport(from);
          const events = spec.given(given).when(report(to)).events();
          const after = spec.given([...given, ...events]);
          expect(after.when(report(to)).events()).toEqual([]);
          expect(after.state.fingerprint).toBe(spec.given(firstReport(to)).state.fingerprint);
        }
      }
    });
  });

  describe('validation', () => {
    const rejects = (devices: readonly ReportedDevice[], code: string, facts: Record<string, unknown>, hostname = HOST) =>
      spec.given([]).when({ type: 'ReportHost', report: { hostname, devices } as HostReport, receivedAt: AT }).thenThrows(code, facts);
    const invalid = 'INVENTORY.REPORT_INVALID';
    const gpu = a100();

    it('refuses a bad hostname', () => {
      rejects([], invalid, { path: 'hostname' }, 'bad_host!');
      rejects([], invalid, { path: 'hostname' }, `${'a'.repeat(63)}.`.repeat(5));
      rejects([], invalid, { path: 'hostname' }, '-leading');
    });

    it('refuses two devices at one PCI address', () => {
      rejects([gpu, { ...x710(), pciAddress: '0000:3B:00.0' }], invalid, { path: 'devices[1].pciAddress' });
    });

    it('refuses a malformed PCI address or vendor id', () => {
      rejects([{ ...gpu, pciAddress: '3b:00.0' }], invalid, { path: 'devices[0].pciAddress' });
      rejects([{ ...gpu, pciAddress: '0000:3b:20.0' }], invalid, { path: 'devices[0].pciAddress' });
      rejects([{ ...gpu, vendorId: 'nvda' }], invalid, { path: 'devices[0].vendorId' });
      rejects([{ ...gpu, vendorId: '0x10de' }], invalid, { path: 'devices[0].vendorId' });
      rejects([{ ...gpu, type: 'SSD' as never }], invalid, { path: 'devices[0].type' });
    });

    it('refuses duplicate deployable names, on one device or across devices', () => {
      const unnamedTwice = { ...gpu, deployables: [gpu.deployables[0], { ...gpu.deployables[0], attachHandles: [] }] };
      rejects([unnamedTwice], invalid, { path: 'devices[0].deployables[1].name' });
      const named = (device: ReportedDevice) => ({ ...device, deployables: [{ ...device.deployables[0], name: 'shared' }] });
      rejects([named(gpu), named(x710())], invalid, { path: 'devices[1].deployables[0].name' });
    });

    it('refuses negative or fractional counts and bad resource classes or traits', () => {
      const deployable = gpu.deployables[0];
      rejects([{ ...gpu, deployables: [{ ...deployable, count: -1 }] }], invalid, { path: 'devices[0].deployables[0].count' });
      rejects([{ ...gpu, deployables: [{ ...deployable, count: 1.5 }] }], invalid, { path: 'devices[0].deployables[0].count' });
      rejects([{ ...gpu, deployables: [{ ...deployable, resourceClass: 'GPU' }] }], invalid, {
        path: 'devices[0].deployables[0].resourceClass',
      });
      rejects([{ ...gpu, deployables: [{ ...deployable, traits: ['lower'] }] }], invalid, { path: 'devices[0].deployables[0].traits[0]' });
    });

    it('refuses an MDEV without a type, and MDEV attributes on other kinds', () => {
      const vgpu = t4vgpu();
      const handles = vgpu.deployables[0].attachHandles;
      rejects([{ ...vgpu, deployables: [{ ...vgpu.deployables[0], attachHandles: [{ ...handles[0], mdevType: undefined }] }] }], invalid, {
        path: 'devices[0].deployables[0].attachHandles[0].mdevType',
      });
      rejects([{ ...gpu, deployables: [{ ...gpu.deployables[0], attachHandles: [{ kind: 'PCI', address: gpu.pciAddress, slot: 1 }] }] }], invalid, {
        path: 'devices[0].deployables[0].attachHandles[0].slot',
      });
    });

    it('refuses a handle reported twice, in one deployable or by two', () => {
      const deployable = gpu.deployables[0];
      rejects([{ ...gpu, deployables: [{ ...deployable, attachHandles: [...deployable.attachHandles, ...deployable.attachHandles] }] }], invalid, {
        path: 'devices[0].deployables[0].attachHandles[1]',
      });
      const stealing = { ...x710(), deployables: [{ ...x710().deployables[0], attachHandles: [{ kind: 'PCI' as const, address: gpu.pciAddress }] }] };
      rejects([gpu, stealing], invalid, { path: 'devices[1].deployables[0].attachHandles[0]' });
    });

    it('refuses a negative NUMA node and bad capacity', () => {
      rejects([{ ...gpu, numaNode: -1 }], invalid, { path: 'devices[0].numaNode' });
      rejects([{ ...gpu, capacity: { memoryGiB: -80 } }], invalid, { path: 'devices[0].capacity.memoryGiB' });
    });

    it('refuses oversized reports with 413', () => {
      const many = Array.from({ length: 257 }, (_, index) => a100(`0000:${index.toString(16).padStart(2, '0').slice(-2)}:00.0`));
      const error = rejects(many, 'INVENTORY.REPORT_TOO_LARGE', { path: 'devices', limit: 256, actual: 257 });
      expect(error.status).toBe(413);
      const handles = Array.from({ length: 4097 }, (_, index) => ({ kind: 'MDEV' as const, address: gpu.pciAddress, mdevType: 'x', slot: index }));
      rejects([{ ...gpu, deployables: [{ ...gpu.deployables[0], attachHandles: handles }] }], 'INVENTORY.REPORT_TOO_LARGE', {
        path: 'devices[0].deployables[0].attachHandles',
        limit: 4096,
      });
    });

    it('reports validation errors as 400 and appends nothing for a malformed report', () => {
      const error = rejects([{ ...gpu, deployables: 'none' as never }], invalid, { path: 'devices[0].deployables' });
      expect(error.status).toBe(400);
    });
  });
});
