import { a100Mig, A100_MIG_PROFILES, hostReport, migDevice } from '../testing/host-report.fixtures';
import type { ReportedPartitioning } from '../host-report';
import { normalizeHostReport } from '../normalize-host-report';
import { carvableSpans, roomToCarve } from './partition-layout';

const HOST = 'compute-1';
const PARENT = `${HOST}_0000:3b:00.0`;
const layout = (partitions: ReportedPartitioning['partitions']): ReportedPartitioning => a100Mig(partitions).partitioning!;
const normalizedDevice = (device: ReturnType<typeof a100Mig>) => normalizeHostReport(hostReport(HOST, [device])).devices[0];

describe('partition layout', () => {
  it('offers every profile on an empty A100 as many times as it fits', () => {
    expect(Object.fromEntries(roomToCarve(layout([])))).toEqual({ '1g.10gb': 7, '2g.20gb': 3, '3g.40gb': 2, '4g.40gb': 1, '7g.80gb': 1 });
  });

  it('counts what is carved against the slices, the placements and the compute slices', () => {
    const room = roomToCarve(layout([migDevice('3g.40gb', 4, 4), migDevice('1g.10gb', 0, 1)]));
    expect(Object.fromEntries(room)).toEqual({ '1g.10gb': 3, '2g.20gb': 1, '3g.40gb': 0, '4g.40gb': 0, '7g.80gb': 0 });
    expect(carvableSpans(layout([migDevice('1g.10gb', 0, 1)]), '2g.20gb')).toEqual([
      { start: 2, slices: 2 },
      { start: 4, slices: 2 },
    ]);
  });

  it('offers nothing while MIG mode is off', () => {
    expect(carvableSpans({ ...layout([]), enabled: false }, '1g.10gb')).toEqual([]);
  });
});

describe('partitioning in a host report', () => {
  it('adds a provider per carved partition and one per profile with the room left to carve', () => {
    const device = normalizedDevice(a100Mig([migDevice('1g.10gb', 0, 1, 'MIG-5c89852c-d268-c3f3-1b07-005d5ae1dc3f')]));
    const byName = new Map(device.deployables.map((deployable) => [deployable.name, deployable]));
    expect(byName.get(`${PARENT}_1g.10gb_0`)).toEqual({
      name: `${PARENT}_1g.10gb_0`,
      resourceClass: 'CUSTOM_MIG_1G_10GB',
      count: 1,
      traits: [],
      attachHandles: [{ kind: 'MIG', address: '0000:3b:00.0', partition: 'MIG-5c89852c-d268-c3f3-1b07-005d5ae1dc3f' }],
    });
    expect(byName.get(`${PARENT}_1g.10gb_carvable`)).toMatchObject({ resourceClass: 'CUSTOM_MIG_1G_10GB', count: 6, attachHandles: [] });
    expect(byName.get(`${PARENT}_7g.80gb_carvable`)).toMatchObject({ resourceClass: 'CUSTOM_MIG_7G_80GB', count: 0 });
  });

  it('names vGPU types as VGPU with the type as a trait, and FPGA regions as FPGA without room to carve', () => {
    const vgpu = normalizedDevice({
      ...a100Mig(),
      partitioning: {
        kind: 'VGPU',
        enabled: true,
        slices: 4,
        profiles: [{ name: 'nvidia-35', slices: 1, maxCount: 4 }],
        partitions: [{ profile: 'nvidia-35', handle: '3b1d6b43-6f7b-4a5e-9d58-0d2f6f0ef001', start: 1, slices: 1 }],
      },
    });
    expect(vgpu.deployables.find((deployable) => deployable.name === `${PARENT}_nvidia-35_1`)).toMatchObject({
      resourceClass: 'VGPU',
      traits: ['CUSTOM_VGPU_NVIDIA_35'],
      attachHandles: [{ kind: 'MDEV', mdevType: 'nvidia-35', slot: 1, partition: '3b1d6b43-6f7b-4a5e-9d58-0d2f6f0ef001' }],
    });
    const fpga = normalizedDevice({
      ...a100Mig(),
      type: 'FPGA',
      partitioning: {
        kind: 'FPGA_REGION',
        enabled: true,
        slices: 2,
        profiles: [{ name: 'region', slices: 1, maxCount: 2 }],
        partitions: [
          { profile: 'region', handle: 'region0', start: 0, slices: 1 },
          { profile: 'region', handle: 'region1', start: 1, slices: 1 },
        ],
      },
    });
    expect(fpga.deployables.map((deployable) => [deployable.name, deployable.resourceClass, deployable.traits])).toEqual([
      [`${PARENT}_region_0`, 'FPGA', ['CUSTOM_FPGA_REGION_REGION0']],
      [`${PARENT}_region_1`, 'FPGA', ['CUSTOM_FPGA_REGION_REGION1']],
    ]);
  });

  it.each([
    ['an unknown profile', [migDevice('5g.50gb', 0, 5)], 'devices[0].partitioning.partitions[0].profile'],
    ['a start off the placements', [migDevice('2g.20gb', 1, 2)], 'devices[0].partitioning.partitions[0].start'],
    ['overlapping partitions', [migDevice('4g.40gb', 0, 4), migDevice('1g.10gb', 2, 1)], 'devices[0].partitioning.partitions[1]'],
    ['a size other than the profile', [migDevice('1g.10gb', 0, 2)], 'devices[0].partitioning.partitions[0].slices'],
    ['one handle twice', [migDevice('1g.10gb', 0, 1, 'MIG-a'), migDevice('1g.10gb', 1, 1, 'MIG-a')], 'devices[0].partitioning.partitions[1].handle'],
  ])('refuses %s, naming the path', (_case, partitions, path) => {
    expect(() => normalizedDevice(a100Mig(partitions))).toThrow(expect.objectContaining({ code: 'INVENTORY.REPORT_INVALID', facts: expect.objectContaining({ path }) }));
  });

  it('refuses partitions while MIG mode is off, and a partition handle reported in a deployable', () => {
    const off = a100Mig([migDevice('1g.10gb', 0, 1)]);
    expect(() => normalizedDevice({ ...off, partitioning: { ...off.partitioning!, enabled: false } })).toThrow(/not enabled/);
    const smuggled = { ...a100Mig(), deployables: [{ resourceClass: 'PGPU', count: 1, traits: [], attachHandles: [{ kind: 'MIG' as const, address: '0000:3b:00.0', partition: 'MIG-x' }] }] };
    expect(() => normalizedDevice(smuggled)).toThrow(/partitioning, not in a deployable/);
  });

  it('refuses more partitions than the limit with 413', () => {
    const many = Array.from({ length: 129 }, (_, index) => migDevice('1g.10gb', 0, 1, `MIG-${index}`));
    expect(() => normalizedDevice(a100Mig(many))).toThrow(expect.objectContaining({ code: 'INVENTORY.REPORT_TOO_LARGE' }));
  });

  it('normalises a normalised report to itself (an agent sends what it normalised)', () => {
    const once = normalizeHostReport(hostReport(HOST, [a100Mig([migDevice('1g.10gb', 0, 1)])]));
    expect(normalizeHostReport(once)).toEqual(once);
  });

  it('normalises profiles by name and partitions by start', () => {
    const device = normalizedDevice({
      ...a100Mig([migDevice('1g.10gb', 5, 1), migDevice('1g.10gb', 2, 1)]),
      partitioning: { ...a100Mig().partitioning!, profiles: [...A100_MIG_PROFILES].reverse(), partitions: [migDevice('1g.10gb', 5, 1), migDevice('1g.10gb', 2, 1)] },
    });
    expect(device.partitioning!.profiles.map((profile) => profile.name)).toEqual(['1g.10gb', '2g.20gb', '3g.40gb', '4g.40gb', '7g.80gb']);
    expect(device.partitioning!.partitions.map((partition) => partition.start)).toEqual([2, 5]);
  });
});
