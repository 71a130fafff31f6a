import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { failureOf, fixtureDriverContext, type FixtureDriverContext } from '../../testing/driver-test-context';
import { nvidiaGpuDriver } from '../nvidia-gpu.driver';
import { parseNvidiaGpuSettings } from '../nvidia-gpu.settings';

const A100 = '0000:3b:00.0';
const A100_UUID = 'GPU-5a1b2c3d-0e0f-4a1b-8c2d-3e4f5a6b7c8d';
const FIRST_MIG = 'MIG-0c6f8a4e-3d2b-5e1f-9a7c-1b2d3e4f5a60';
const CARVED_MIG = 'MIG-7e5d4c3b-2a19-5f08-8e7d-6c5b4a392817';

/**
 * The nvidia-gpu fixture host's A100 80GB PCIe in MIG mode. Its fake
 * nvidia-smi answers from bin/mig/<state>/ (listings in the A100 80GB
 * format of the recorded outputs in ./fixtures) and moves between states
 * as -cgi, -dci and -dgi would.
 */
describe('nvidia-gpu driver: MIG partitions (nvidia-gpu fixture)', () => {
  let host: FixtureDriverContext;
  let driver: ReturnType<typeof nvidiaGpuDriver>;
  const migState = (state: string) => writeFile(join(host.copy.bin, 'mig', 'state'), `${state}\n`);
  const currentState = async () => (await readFile(join(host.copy.bin, 'mig', 'state'), 'utf8')).trim();
  const smiCalls = () => host.commands.filter((call) => call.command.endsWith('nvidia-smi')).map((call) => call.args.join(' '));
  const a100 = async () => (await driver.discover()).find((device) => device.pciAddress === A100) as { partitioning?: unknown } | undefined;

  beforeEach(async () => {
    host = await fixtureDriverContext('nvidia-gpu');
    driver = nvidiaGpuDriver(host.context, parseNvidiaGpuSettings({ nvidiaSmiPath: join(host.copy.bin, 'nvidia-smi'), vgpuTypes: { '0000:AF:00.0': 'nvidia-223' } }));
    await migState('on');
  });
  afterEach(() => host.cleanup());

  it('reports the profiles and the GPU instances carved now, reading every GPU in six runs', async () => {
    expect((await a100())?.partitioning).toEqual({
      kind: 'MIG',
      enabled: true,
      slices: 8,
      profiles: [
        { name: '1g.10gb', profileId: 19, slices: 1, memoryMiB: 9728, computeSlices: 1, maxCount: 7, placements: [0, 1, 2, 3, 4, 5, 6] },
        { name: '1g.10gb+me', profileId: 20, slices: 1, memoryMiB: 9728, computeSlices: 1, maxCount: 1, placements: [0, 1, 2, 3, 4, 5, 6] },
        { name: '2g.20gb', profileId: 14, slices: 2, memoryMiB: 19968, computeSlices: 2, maxCount: 3, placements: [0, 2, 4] },
        { name: '3g.40gb', profileId: 9, slices: 4, memoryMiB: 40192, computeSlices: 3, maxCount: 2, placements: [0, 4] },
        { name: '4g.40gb', profileId: 5, slices: 4, memoryMiB: 40192, computeSlices: 4, maxCount: 1, placements: [0] },
        { name: '7g.80gb', profileId: 0, slices: 8, memoryMiB: 80896, computeSlices: 7, maxCount: 1, placements: [0] },
      ],
      partitions: [{ profile: '3g.40gb', handle: FIRST_MIG, start: 0, slices: 4, gpuInstanceId: 1, computeInstanceId: 0 }],
    });
    expect(smiCalls().filter((args) => !args.startsWith('--query-gpu'))).toEqual(['-q -x', '-L', 'mig -lgip', 'mig -lgipp', 'mig -lgi', 'mig -lci']);
    expect(host.warnings).toEqual([]);
  });

  it('carves a GPU instance at a placement with its compute instance, and answers with its MIG device', async () => {
    expect(await driver.carvePartition(A100, '1g.10gb', 4)).toEqual({
      pciAddress: A100,
      profileId: 19,
      profile: '1g.10gb',
      handle: CARVED_MIG,
      start: 4,
      slices: 1,
      gpuInstanceId: 2,
      computeInstanceId: 0,
      changed: true,
    });
    expect(smiCalls()).toContain(`mig -i ${A100_UUID} -cgi 19:4 -C`);
    expect(await currentState()).toBe('carved');
    expect((await a100())?.partitioning).toMatchObject({ partitions: [{ handle: FIRST_MIG }, { handle: CARVED_MIG, start: 4 }] });
  });

  it('reads a GPU in MIG mode with nothing carved: "No … found" listings are empty, whatever their exit status', async () => {
    await migState('empty');

    expect((await a100())?.partitioning).toMatchObject({ enabled: true, partitions: [], profiles: expect.arrayContaining([expect.objectContaining({ name: '7g.80gb', maxCount: 1 })]) });
    expect(host.warnings).toEqual([]);
  });

  it('answers a carve offered again at the same placement with the partition it made, carving nothing', async () => {
    await migState('carved');

    expect(await driver.carvePartition(A100, '1g.10gb', 4)).toMatchObject({ handle: CARVED_MIG, gpuInstanceId: 2, start: 4, changed: false });
    expect(smiCalls().filter((args) => args.includes('-cgi'))).toEqual([]);
  });

  it('destroys a partition: its compute instances, then its GPU instance; one already gone is success', async () => {
    await migState('carved');

    expect(await driver.destroyPartition(A100, CARVED_MIG)).toEqual({ pciAddress: A100, handle: CARVED_MIG, gpuInstanceId: 2, changed: true });
    expect(smiCalls()).toEqual(expect.arrayContaining([`mig -i ${A100_UUID} -gi 2 -ci 0 -dci`, `mig -i ${A100_UUID} -gi 2 -dgi`]));
    expect(await currentState()).toBe('on');
    expect(await driver.destroyPartition(A100, CARVED_MIG)).toEqual({ pciAddress: A100, handle: CARVED_MIG, changed: false });
  });

  it('refuses to destroy a partition in use, saying it is still there', async () => {
    await migState('in-use');

    expect(await failureOf(driver.destroyPartition(A100, CARVED_MIG))).toMatchObject({
      code: 'DRIVER.DEVICE_BUSY',
      message: expect.stringContaining('In use by another client'),
      deviceState: 'GPU instance 2 still exists',
    });
  });

  it('destroys again what a failed carve left (a GPU instance whose compute instance could not be made)', async () => {
    await migState('ci-fails');

    const failure = await failureOf(driver.carvePartition(A100, '1g.10gb'));

    expect(failure).toMatchObject({ code: 'DRIVER.TOOL_FAILED', deviceState: 'unchanged (what was carved was destroyed again)', evidence: { madeGpuInstances: [2] } });
    expect(failure.message).toContain('Insufficient Resources');
    expect(smiCalls()).toContain(`mig -i ${A100_UUID} -gi 2 -dgi`);
    expect(await currentState()).toBe('on');
  });

  it('refuses what the GPU cannot do, running nothing that changes it', async () => {
    const carve = (device: string, profile: string, placement?: number) => failureOf(driver.carvePartition(device, profile, placement));

    expect(await carve(A100, '1g.5gb')).toMatchObject({ code: 'DRIVER.INVALID_PARAMS', deviceState: 'unchanged', message: expect.stringContaining('offers: 1g.10gb, 1g.10gb+me, 2g.20gb') });
    expect(await carve(A100, '1g.10gb', 7)).toMatchObject({ code: 'DRIVER.INVALID_PARAMS', message: '1g.10gb cannot start at slice 7 on 0000:3b:00.0 (placements: 0, 1, 2, 3, 4, 5, 6)' });
    expect(await carve(A100, '4g.40gb')).toMatchObject({ code: 'DRIVER.NO_CAPACITY' });
    expect(await carve('0000:af:00.0', '1g.10gb')).toMatchObject({ code: 'DRIVER.DEVICE_NOT_FOUND' });
    expect(await carve('not-an-address', '1g.10gb')).toMatchObject({ code: 'DRIVER.INVALID_PARAMS' });
    await migState('off');
    expect(await carve(A100, '1g.10gb')).toMatchObject({ code: 'DRIVER.INVALID_PARAMS', message: 'MIG mode is off on 0000:3b:00.0 (pending: Disabled)' });
    expect(smiCalls().filter((args) => /-cgi|-dci|-dgi/.test(args))).toEqual([]);
  });

  it('takes the bind\'s carve and destroy jobs: the carve at the start its params name, the destroy by its handle', async () => {
    const carveJob = { deviceUuid: '1f0e6a4c-2b3d-4e5f-8a9b-0c1d2e3f4a5b', pciAddress: A100, profile: '1g.10gb', profileId: 19, start: 4, bindId: 'bind-1' };

    expect(await driver.carve!(carveJob)).toMatchObject({ pciAddress: A100, profile: '1g.10gb', handle: CARVED_MIG, start: 4, slices: 1, gpuInstanceId: 2, changed: true });
    expect(smiCalls()).toContain(`mig -i ${A100_UUID} -cgi 19:4 -C`);
    expect(await driver.destroy!({ pciAddress: A100, handle: CARVED_MIG, reason: 'compensation' })).toEqual({ pciAddress: A100, handle: CARVED_MIG, gpuInstanceId: 2, changed: true });
    expect(await currentState()).toBe('on');
  });

  it('refuses a carve or destroy job whose params are wrong before nvidia-smi changes anything', async () => {
    const carveJob = { pciAddress: A100, profile: '1g.10gb', start: 4 };

    expect(await failureOf(driver.carve!({ ...carveJob, start: 'four' }))).toMatchObject({ code: 'DRIVER.INVALID_PARAMS', deviceState: 'unchanged' });
    expect(await failureOf(driver.carve!({ ...carveJob, profile: '1g 10gb; rm' }))).toMatchObject({ code: 'DRIVER.INVALID_PARAMS' });
    expect(await failureOf(driver.carve!({ ...carveJob, pciAddress: undefined }))).toMatchObject({ code: 'DRIVER.INVALID_PARAMS' });
    expect(await failureOf(driver.destroy!({ pciAddress: A100, handle: '../MIG' }))).toMatchObject({ code: 'DRIVER.INVALID_PARAMS' });
    expect(smiCalls().filter((args) => /-cgi|-dci|-dgi/.test(args))).toEqual([]);
  });

  it('reports no partitioning, and says why, when a listing fails', async () => {
    await rm(join(host.copy.bin, 'mig', 'on', 'lci.txt'));

    expect((await a100())?.partitioning).toBeUndefined();
    expect(host.warnings).toEqual([expect.stringContaining('MIG layout unreadable (nvidia-smi exited with 2: fake nvidia-smi: unexpected arguments: mig -lci)')]);
  });
});
