import { parseComputeInstances, parseGpuInstancePlacements, parseGpuInstanceProfiles, parseGpuInstances } from './mig-listings';
import { migFixture } from './mig-fixtures';

const profile = (gpu: number, name: string, profileId: number, free: number, total: number, memoryGiB: number, multiprocessors: number) => ({
  gpu,
  name,
  profileId,
  free,
  total,
  memoryGiB,
  multiprocessors,
});

describe('nvidia-smi mig -lgip (GPU instance profiles)', () => {
  it.each([
    [
      'h100-80gb-hbm3.lgip.txt',
      [
        profile(0, '1g.10gb', 19, 7, 7, 9.75, 16),
        profile(0, '1g.10gb+me', 20, 1, 1, 9.75, 16),
        profile(0, '1g.20gb', 15, 4, 4, 19.62, 26),
        profile(0, '2g.20gb', 14, 3, 3, 19.62, 32),
        profile(0, '3g.40gb', 9, 2, 2, 39.5, 60),
        profile(0, '4g.40gb', 5, 1, 1, 39.5, 64),
        profile(0, '7g.80gb', 0, 1, 1, 79.25, 132),
      ],
    ],
    [
      'a100-80gb.lgip.txt',
      [
        profile(0, '1g.10gb', 19, 7, 7, 9.5, 14),
        profile(0, '1g.10gb+me', 20, 1, 1, 9.5, 14),
        profile(0, '2g.20gb', 14, 3, 3, 19.5, 28),
        profile(0, '3g.40gb', 9, 2, 2, 39.25, 42),
        profile(0, '4g.40gb', 5, 1, 1, 39.25, 56),
        profile(0, '7g.80gb', 0, 1, 1, 79, 98),
      ],
    ],
    [
      'a100-sxm4-40gb.lgip.txt',
      [
        profile(0, '1g.5gb', 19, 7, 7, 4.75, 14),
        profile(0, '1g.5gb+me', 20, 1, 1, 4.75, 14),
        profile(0, '1g.10gb', 15, 4, 4, 9.62, 14),
        profile(0, '2g.10gb', 14, 3, 3, 9.62, 28),
        profile(0, '3g.20gb', 9, 2, 2, 19.5, 42),
        profile(0, '4g.20gb', 5, 1, 1, 19.5, 56),
        profile(0, '7g.40gb', 0, 1, 1, 39.25, 98),
      ],
    ],
    [
      'a30.lgip.txt',
      [
        profile(0, '1g.6gb', 14, 4, 4, 5.81, 14),
        profile(0, '1g.6gb+me', 21, 1, 1, 5.81, 14),
        profile(0, '2g.12gb', 5, 2, 2, 11.69, 28),
        profile(0, '2g.12gb+me', 6, 1, 1, 11.69, 28),
        profile(0, '4g.24gb', 0, 1, 1, 23.44, 56),
      ],
    ],
    [
      'h100-nvl.lgip.txt',
      [
        profile(0, '1g.12gb', 19, 7, 7, 10.62, 16),
        profile(0, '1g.12gb+me', 20, 1, 1, 10.62, 16),
        profile(0, '1g.24gb', 15, 4, 4, 21.5, 26),
        profile(0, '2g.24gb', 14, 3, 3, 21.5, 32),
        profile(0, '3g.47gb', 9, 2, 2, 46.12, 60),
        profile(0, '4g.47gb', 5, 1, 1, 46.12, 64),
        profile(0, '7g.94gb', 0, 1, 1, 92.62, 132),
      ],
    ],
    [
      'h200.lgip-part-gpu6.txt',
      [
        profile(6, '1g.18gb', 19, 7, 7, 16, 16),
        profile(6, '1g.18gb+me', 20, 1, 1, 16, 16),
        profile(6, '1g.35gb', 15, 4, 4, 32.25, 26),
        profile(6, '2g.35gb', 14, 3, 3, 32.25, 32),
        profile(6, '3g.71gb', 9, 2, 2, 69.5, 60),
        profile(6, '4g.71gb', 5, 1, 1, 69.5, 64),
      ],
    ],
    [
      'h200.lgip-part-gpu2-3.txt',
      [
        profile(2, '3g.71gb', 9, 2, 2, 69.5, 60),
        profile(2, '4g.71gb', 5, 1, 1, 69.5, 64),
        profile(2, '7g.141gb', 0, 1, 1, 139.75, 132),
        profile(3, '1g.18gb', 19, 7, 7, 16, 16),
        profile(3, '1g.18gb+me', 20, 1, 1, 16, 16),
        profile(3, '1g.35gb', 15, 4, 4, 32.25, 26),
      ],
    ],
  ])('reads %s', (name, expected) => {
    expect(parseGpuInstanceProfiles(migFixture(name))).toEqual(expected);
  });

  it('reads every GPU of a host (four H100 SXM5)', () => {
    const rows = parseGpuInstanceProfiles(migFixture('h100-sxm5-80gb-x4.lgip.txt'));

    expect(rows).toHaveLength(28);
    expect(rows.filter((row) => row.gpu === 3).map((row) => row.name)).toEqual(['1g.10gb', '1g.10gb+me', '1g.20gb', '2g.20gb', '3g.40gb', '4g.40gb', '7g.80gb']);
  });

  it('ignores what is no profile row, and answers nothing for a GPU without MIG', () => {
    expect(parseGpuInstanceProfiles('No MIG-enabled devices found.\n')).toEqual([]);
    expect(parseGpuInstanceProfiles('|   0  MIG 1g.10gb       19     7/7        n/a        No     16     1     0   |\n| garbage |\n')).toEqual([]);
  });
});

describe('nvidia-smi mig -lgipp (placements)', () => {
  it('reads the H100 80GB placements, in memory slices', () => {
    expect(parseGpuInstancePlacements(migFixture('h100-80gb-hbm3.lgipp.txt'))).toEqual([
      { gpu: 0, profileId: 19, starts: [0, 1, 2, 3, 4, 5, 6], size: 1 },
      { gpu: 0, profileId: 20, starts: [0, 1, 2, 3, 4, 5, 6], size: 1 },
      { gpu: 0, profileId: 15, starts: [0, 2, 4, 6], size: 2 },
      { gpu: 0, profileId: 14, starts: [0, 2, 4], size: 2 },
      { gpu: 0, profileId: 9, starts: [0, 4], size: 4 },
      { gpu: 0, profileId: 5, starts: [0], size: 4 },
      { gpu: 0, profileId: 0, starts: [0], size: 8 },
    ]);
  });

  it('reads the A30 placements (4 slices; `Placement :` for a single one)', () => {
    expect(parseGpuInstancePlacements(migFixture('a30.lgipp.txt'))).toEqual([
      { gpu: 0, profileId: 14, starts: [0, 1, 2, 3], size: 1 },
      { gpu: 0, profileId: 21, starts: [0, 1, 2, 3], size: 1 },
      { gpu: 0, profileId: 5, starts: [0, 2], size: 2 },
      { gpu: 0, profileId: 6, starts: [0, 2], size: 2 },
      { gpu: 0, profileId: 0, starts: [0], size: 4 },
    ]);
  });
});

describe('nvidia-smi mig -lgi (GPU instances)', () => {
  const gi = (name: string, profileId: number, gpuInstanceId: number, start: number, size: number) => ({ gpu: 0, name, profileId, gpuInstanceId, start, size });

  it.each([
    ['h100-80gb-hbm3.lgi.txt', [7, 8, 9, 10, 11, 12, 13].map((id, start) => gi('1g.10gb', 19, id, start, 1))],
    ['a100-sxm4-40gb.lgi.txt', [gi('3g.20gb', 9, 1, 4, 4), gi('3g.20gb', 9, 2, 0, 4)]],
    ['a100-sxm4-40gb.lgi-mixed.txt', [gi('1g.5gb', 19, 13, 6, 1), gi('2g.10gb', 14, 5, 4, 2), gi('4g.20gb', 5, 1, 0, 4)]],
    ['a30.lgi.txt', [gi('1g.6gb', 14, 3, 0, 1), gi('1g.6gb', 14, 4, 1, 1), gi('2g.12gb', 5, 2, 2, 2)]],
    ['a30.lgi-none.txt', []],
  ])('reads %s', (name, expected) => {
    expect(parseGpuInstances(migFixture(name))).toEqual(expected);
  });
});

describe('nvidia-smi mig -lci (compute instances)', () => {
  it('reads the H100 80GB compute instances, one per GPU instance', () => {
    expect(parseComputeInstances(migFixture('h100-80gb-hbm3.lci.txt'))).toEqual(
      [7, 8, 9, 10, 11, 12, 13].map((gpuInstanceId) => ({ gpu: 0, gpuInstanceId, name: '1g.10gb', profileId: 0, computeInstanceId: 0 })),
    );
  });

  it('reads the older table without placements, and never a GPU instance row', () => {
    const older = ['|   0      1       MIG 1c.3g.20gb       0         1     |', '|   0  MIG 1g.10gb         19        7          0:1     |'].join('\n');

    expect(parseComputeInstances(older)).toEqual([{ gpu: 0, gpuInstanceId: 1, name: '1c.3g.20gb', profileId: 0, computeInstanceId: 1 }]);
  });
});
