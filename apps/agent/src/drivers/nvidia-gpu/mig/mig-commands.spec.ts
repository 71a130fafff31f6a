import {
  createGpuInstanceArgs,
  destroyComputeInstanceArgs,
  destroyGpuInstanceArgs,
  parseCreatedInstances,
  parseDestroyedComputeInstances,
  parseDestroyedGpuInstances,
} from './mig-commands';
import { migFixture } from './mig-fixtures';

const GPU = 'GPU-b2acda36-db78-a209-f9ef-d07b4336c449';

describe('MIG carve and destroy commands', () => {
  it('builds the commands, naming the GPU by its UUID', () => {
    expect(createGpuInstanceArgs(GPU, 19)).toEqual(['mig', '-i', GPU, '-cgi', '19', '-C']);
    expect(createGpuInstanceArgs(GPU, 9, 4)).toEqual(['mig', '-i', GPU, '-cgi', '9:4', '-C']);
    expect(destroyComputeInstanceArgs(GPU, 7, 0)).toEqual(['mig', '-i', GPU, '-gi', '7', '-ci', '0', '-dci']);
    expect(destroyGpuInstanceArgs(GPU, 7)).toEqual(['mig', '-i', GPU, '-gi', '7', '-dgi']);
  });

  it('reads what -cgi -C made: an A30 GPU instance with its compute instance', () => {
    expect(parseCreatedInstances(migFixture('a30.cgi-14.txt'))).toEqual({
      gpuInstances: [{ gpuInstanceId: 3, profile: '1g.6gb', profileId: 14 }],
      computeInstances: [{ gpuInstanceId: 3, computeInstanceId: 0 }],
    });
    expect(parseCreatedInstances(migFixture('a30.cgi-5.txt')).gpuInstances).toEqual([{ gpuInstanceId: 2, profile: '2g.12gb', profileId: 5 }]);
  });

  it('reads several at once (H100: seven 1g.10gb; A100: two 3g.20gb) and -cgi without -C', () => {
    const h100 = parseCreatedInstances(migFixture('h100-80gb-hbm3.cgi-19x7.txt'));
    expect(h100.gpuInstances.map((gi) => gi.gpuInstanceId)).toEqual([13, 11, 12, 7, 8, 9, 10]);
    expect(h100.computeInstances).toEqual([13, 11, 12, 7, 8, 9, 10].map((gpuInstanceId) => ({ gpuInstanceId, computeInstanceId: 0 })));
    expect(parseCreatedInstances(migFixture('a100-sxm4-40gb.cgi-9x2.txt')).gpuInstances).toEqual([
      { gpuInstanceId: 2, profile: '3g.20gb', profileId: 9 },
      { gpuInstanceId: 1, profile: '3g.20gb', profileId: 9 },
    ]);
    expect(parseCreatedInstances(migFixture('a100-sxm4-40gb.cgi-no-ci.txt'))).toEqual({
      gpuInstances: [
        { gpuInstanceId: 13, profile: '1g.5gb', profileId: 19 },
        { gpuInstanceId: 5, profile: '2g.10gb', profileId: 14 },
        { gpuInstanceId: 1, profile: '4g.20gb', profileId: 5 },
      ],
      computeInstances: [],
    });
  });

  it('reads the older compute instance line that names no id', () => {
    const line = 'Successfully created compute instance on GPU  0 GPU instance ID  1 using profile MIG 1c.3g.20gb (ID  0)';
    expect(parseCreatedInstances(line).computeInstances).toEqual([{ gpuInstanceId: 1, computeInstanceId: null }]);
  });

  it('reads what -dci and -dgi destroyed', () => {
    expect(parseDestroyedComputeInstances(migFixture('h100-80gb-hbm3.dci.txt'))).toEqual(
      [7, 8, 9, 10, 11, 12, 13].map((gpuInstanceId) => ({ gpuInstanceId, computeInstanceId: 0 })),
    );
    expect(parseDestroyedComputeInstances(migFixture('a100-sxm4-40gb.dci.txt'))).toEqual([0, 1, 2].map((computeInstanceId) => ({ gpuInstanceId: 1, computeInstanceId })));
    expect(parseDestroyedGpuInstances(migFixture('h100-80gb-hbm3.dgi.txt'))).toEqual([7, 8, 9, 10, 11, 12, 13]);
    expect(parseDestroyedGpuInstances(migFixture('a100-sxm4-40gb.dgi.txt'))).toEqual([1, 2]);
    expect(parseDestroyedGpuInstances('Unable to destroy GPU instance ID  1 from GPU  0: In use by another client\n')).toEqual([]);
  });
});
