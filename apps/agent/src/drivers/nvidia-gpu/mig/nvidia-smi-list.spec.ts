import { migFixture } from './mig-fixtures';
import { parseNvidiaSmiList } from './nvidia-smi-list';

describe('nvidia-smi -L', () => {
  it('reads eight H200s, the first in MIG mode with its devices, the others whole', () => {
    const gpus = parseNvidiaSmiList(migFixture('h200.L.txt'));

    expect(gpus.map((gpu) => [gpu.index, gpu.name, gpu.migDevices.length])).toEqual([
      [0, 'NVIDIA H200', 6],
      [1, 'NVIDIA H200', 0],
      [2, 'NVIDIA H200', 0],
      [3, 'NVIDIA H200', 0],
      [4, 'NVIDIA H200', 0],
      [5, 'NVIDIA H200', 0],
      [6, 'NVIDIA H200', 0],
      [7, 'NVIDIA H200', 0],
    ]);
    expect(gpus[0].uuid).toBe('GPU-b2acda36-db78-a209-f9ef-d07b4336c449');
    expect(gpus[0].migDevices.slice(0, 2)).toEqual([
      { profile: '2g.35gb', index: 0, uuid: 'MIG-b05c0034-4d0e-5d3c-a25c-e6795d1779df' },
      { profile: '1g.18gb', index: 1, uuid: 'MIG-be041b89-b751-5c96-84aa-85315833c669' },
    ]);
  });

  it.each([
    ['h100-nvl.L.txt', 'NVIDIA H100 NVL', 7],
    ['a30.L.txt', 'NVIDIA A30', 3],
    ['a30.L-before.txt', 'NVIDIA A30', 2],
    ['a100-sxm4-40gb.L.txt', 'A100-SXM4-40GB', 2],
  ])('reads %s', (name, gpuName, migDevices) => {
    const [gpu, ...others] = parseNvidiaSmiList(migFixture(name));

    expect(others).toEqual([]);
    expect(gpu).toMatchObject({ index: 0, name: gpuName });
    expect(gpu.migDevices.map((device) => device.index)).toEqual([...Array(migDevices).keys()]);
    expect(gpu.migDevices.every((device) => /^MIG-[0-9a-f-]{36}$/.test(device.uuid))).toBe(true);
  });

  it('ignores a MIG line before any GPU and lines it does not know', () => {
    expect(parseNvidiaSmiList('  MIG 1g.5gb Device 0: (UUID: MIG-x)\nNo devices were found\n')).toEqual([]);
  });
});
