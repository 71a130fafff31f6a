import { migFixture } from './mig-fixtures';
import type { MigGpuLayout } from './mig-layout';
import { parseComputeInstances, parseGpuInstancePlacements, parseGpuInstanceProfiles, parseGpuInstances } from './mig-listings';
import { migPartitioning } from './mig-partitioning';
import { parseNvidiaSmiList } from './nvidia-smi-list';

const layout = (fields: Partial<MigGpuLayout>): MigGpuLayout => ({
  pciAddress: '0000:0b:00.0',
  uuid: 'GPU-1e44b340-5807-0dbe-62e6-343a6b8b8bcd',
  migCurrent: 'Enabled',
  migPending: 'Enabled',
  profiles: [],
  placements: [],
  gpuInstances: [],
  computeInstances: [],
  migDevices: [],
  migUuids: [],
  ...fields,
});

describe('MIG layout → ReportedPartitioning', () => {
  it('maps an A30 session: profiles with placements, three GPU instances named by their MIG device UUIDs', () => {
    const a30 = layout({
      profiles: parseGpuInstanceProfiles(migFixture('a30.lgip.txt')),
      placements: parseGpuInstancePlacements(migFixture('a30.lgipp.txt')),
      gpuInstances: parseGpuInstances(migFixture('a30.lgi.txt')),
      // Each carve made compute instance 0 (a30.cgi-*.txt); the session's `nvidia-smi` table numbered the MIG devices GI 2 → 0, GI 3 → 1, GI 4 → 2.
      computeInstances: [2, 3, 4].map((gpuInstanceId) => ({ gpu: 0, gpuInstanceId, name: '1g.6gb', profileId: 0, computeInstanceId: 0 })),
      migDevices: [2, 3, 4].map((gpuInstanceId, index) => ({ index, gpuInstanceId, computeInstanceId: 0 })),
      migUuids: parseNvidiaSmiList(migFixture('a30.L.txt'))[0].migDevices,
    });

    expect(migPartitioning(a30, { migSlices: 4, memoryGiB: 24 })).toEqual({
      kind: 'MIG',
      enabled: true,
      slices: 4,
      profiles: [
        { name: '1g.6gb', profileId: 14, slices: 1, memoryMiB: 5949, computeSlices: 1, maxCount: 4, placements: [0, 1, 2, 3] },
        { name: '1g.6gb+me', profileId: 21, slices: 1, memoryMiB: 5949, computeSlices: 1, maxCount: 1, placements: [0, 1, 2, 3] },
        { name: '2g.12gb', profileId: 5, slices: 2, memoryMiB: 11971, computeSlices: 2, maxCount: 2, placements: [0, 2] },
        { name: '2g.12gb+me', profileId: 6, slices: 2, memoryMiB: 11971, computeSlices: 2, maxCount: 1, placements: [0, 2] },
        { name: '4g.24gb', profileId: 0, slices: 4, memoryMiB: 24003, computeSlices: 4, maxCount: 1, placements: [0] },
      ],
      partitions: [
        { profile: '1g.6gb', handle: 'MIG-41b9eab5-8d48-5c52-9f07-82bc59af3901', start: 0, slices: 1, gpuInstanceId: 3, computeInstanceId: 0 },
        { profile: '1g.6gb', handle: 'MIG-55dcd9bd-e6b1-549a-bcb4-0b0496bfee9c', start: 1, slices: 1, gpuInstanceId: 4, computeInstanceId: 0 },
        { profile: '2g.12gb', handle: 'MIG-1b8509c0-e60d-502d-8263-d434867998aa', start: 2, slices: 2, gpuInstanceId: 2, computeInstanceId: 0 },
      ],
    });
  });

  it('maps the H100 80GB session: seven 1g.10gb, slices from the placements', () => {
    const h100 = layout({
      profiles: parseGpuInstanceProfiles(migFixture('h100-80gb-hbm3.lgip.txt')),
      placements: parseGpuInstancePlacements(migFixture('h100-80gb-hbm3.lgipp.txt')),
      gpuInstances: parseGpuInstances(migFixture('h100-80gb-hbm3.lgi.txt')),
      computeInstances: parseComputeInstances(migFixture('h100-80gb-hbm3.lci.txt')),
    });

    const partitioning = migPartitioning(h100, { migSlices: 8, memoryGiB: 80 });

    expect(partitioning.profiles.map((profile) => [profile.name, profile.slices, profile.maxCount])).toEqual([
      ['1g.10gb', 1, 7],
      ['1g.10gb+me', 1, 1],
      ['1g.20gb', 2, 4],
      ['2g.20gb', 2, 3],
      ['3g.40gb', 4, 2],
      ['4g.40gb', 4, 1],
      ['7g.80gb', 8, 1],
    ]);
    expect(partitioning.partitions.map((partition) => [partition.gpuInstanceId, partition.start, partition.slices])).toEqual(
      [7, 8, 9, 10, 11, 12, 13].map((id, start) => [id, start, 1]),
    );
    // Without `-q -x` and `-L` of that session no MIG device UUID is known: the GPU instance stands in.
    expect(partitioning.partitions[0]).toEqual({ profile: '1g.10gb', handle: 'gi-7', start: 0, slices: 1, gpuInstanceId: 7, computeInstanceId: 0 });
  });

  it('reports GPU instances carved without compute instances (A100 40GB, -cgi without -C), slices from the memory share without -lgipp', () => {
    const a100 = layout({
      profiles: parseGpuInstanceProfiles(migFixture('a100-sxm4-40gb.lgip.txt')),
      gpuInstances: parseGpuInstances(migFixture('a100-sxm4-40gb.lgi-mixed.txt')),
    });

    const partitioning = migPartitioning(a100, { migSlices: 8, memoryGiB: 40 });

    expect(partitioning.profiles.map((profile) => [profile.name, profile.slices])).toEqual([
      ['1g.5gb', 1],
      ['1g.5gb+me', 1],
      ['1g.10gb', 2],
      ['2g.10gb', 2],
      ['3g.20gb', 4],
      ['4g.20gb', 4],
      ['7g.40gb', 8],
    ]);
    expect(partitioning.profiles[0].placements).toBeUndefined();
    expect(partitioning.partitions).toEqual([
      { profile: '4g.20gb', handle: 'gi-1', start: 0, slices: 4, gpuInstanceId: 1 },
      { profile: '2g.10gb', handle: 'gi-5', start: 4, slices: 2, gpuInstanceId: 5 },
      { profile: '1g.5gb', handle: 'gi-13', start: 6, slices: 1, gpuInstanceId: 13 },
    ]);
    expect(partitioning.partitions.reduce((sum, partition) => sum + partition.slices, 0)).toBe(7);
  });

  it('maps the H200 profiles (141 GB in eight slices)', () => {
    const h200 = layout({ profiles: parseGpuInstanceProfiles(migFixture('h200.lgip-part-gpu6.txt')) });

    expect(migPartitioning(h200, { migSlices: 8, memoryGiB: 141 }).profiles.map((profile) => [profile.name, profile.slices, profile.memoryMiB])).toEqual([
      ['1g.18gb', 1, 16384],
      ['1g.18gb+me', 1, 16384],
      ['1g.35gb', 2, 33024],
      ['2g.35gb', 2, 33024],
      ['3g.71gb', 4, 71168],
      ['4g.71gb', 4, 71168],
    ]);
  });

  it('reports a MIG-capable GPU with MIG off as not enabled, with nothing to carve', () => {
    expect(migPartitioning(layout({ migCurrent: 'Disabled', migPending: 'Enabled' }), { migSlices: 8, memoryGiB: 141 })).toEqual({
      kind: 'MIG',
      enabled: false,
      slices: 8,
      profiles: [],
      partitions: [],
    });
  });
});
