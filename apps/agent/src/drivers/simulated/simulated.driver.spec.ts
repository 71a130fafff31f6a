import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizeHostReport } from '@ledger/inventory';
import type { DriverContext } from '../driver-context';
import { failureOf } from '../testing/driver-test-context';
import { simulatedDriver, type SimulatedDriver } from './simulated.driver';
import { parseSimulatedSettings } from './simulated.settings';

const IMAGE = { url: 'http://images.test/v2/images/a/file', sha256: 'ab'.repeat(32) };
const INSTANCE = '7d3c1f8e-9b2a-4c5d-8e6f-1a2b3c4d5e6f';

function simulated(raw: Record<string, unknown> = {}, hostname = 'compute-00042', workDir = '/nonexistent/simulated'): { driver: SimulatedDriver; slept: number[] } {
  const slept: number[] = [];
  const context = {
    hostname,
    workDir,
    sleep: async (ms: number) => void slept.push(ms),
    playbooks: { install: '/playbooks/simulated/install.yml', uninstall: '/playbooks/simulated/uninstall.yml' },
  } as unknown as DriverContext;
  return { driver: simulatedDriver(context, parseSimulatedSettings(raw, hostname)), slept };
}

describe('simulated driver', () => {
  it('builds a host the ledger accepts: FPGA regions with VFs, vGPUs, a NIC on its network', async () => {
    const { driver } = simulated({ seed: 'demo', fpgas: 1, fpgaRegions: 2, fpgaVfs: 3, gpus: 1, vgpuType: 'nvidia-700', vgpuInstances: 2, nics: 1, nicVfs: 0 });

    const devices = await driver.discover();

    expect(devices.map((device) => [device.type, device.pciAddress])).toEqual([
      ['FPGA', '0000:10:00.0'],
      ['GPU', '0000:12:00.0'],
      ['NIC', '0000:14:00.0'],
    ]);
    expect(devices[0].deployables).toEqual([
      {
        name: 'compute-00042_0000:10:00.0_region0',
        resourceClass: 'FPGA',
        count: 2,
        traits: ['OWNER_CYBORG', 'CUSTOM_FPGA_INTEL', 'CUSTOM_FPGA_INTEL_PAC_ARRIA10', expect.stringMatching(/^CUSTOM_FPGA_REGION_INTEL_[0-9A-F]{32}$/)],
        driverName: 'simulated',
        attachHandles: [
          { kind: 'VF', address: '0000:10:01.0' },
          { kind: 'VF', address: '0000:10:01.2' },
        ],
      },
      expect.objectContaining({ name: 'compute-00042_0000:10:00.0_region1', count: 1, attachHandles: [{ kind: 'VF', address: '0000:10:01.1' }] }),
    ]);
    expect(devices[1].deployables[0]).toEqual({
      resourceClass: 'VGPU',
      count: 2,
      traits: ['OWNER_CYBORG', 'CUSTOM_NVIDIA_20B5_NVIDIA_700'],
      driverName: 'simulated',
      attachHandles: [
        { kind: 'MDEV', address: '0000:12:00.0', mdevType: 'nvidia-700', slot: 0 },
        { kind: 'MDEV', address: '0000:12:00.0', mdevType: 'nvidia-700', slot: 1 },
      ],
    });
    expect(devices[2].deployables[0]).toMatchObject({ count: 1, traits: ['OWNER_CYBORG', 'CUSTOM_NIC_X710', 'CUSTOM_PF', 'CUSTOM_PHYSNET1'], attachHandles: [{ kind: 'PCI', address: '0000:14:00.0', physicalNetwork: 'physnet1' }] });
    expect(() => normalizeHostReport({ hostname: 'compute-00042', devices })).not.toThrow();
  });

  it('stays within what the ledger accepts at its largest', async () => {
    const { driver } = simulated({ fpgas: 16, fpgaRegions: 8, fpgaVfs: 64, gpus: 16, vgpuType: 'nvidia-700', vgpuInstances: 64, nics: 8, nicVfs: 64 });
    const devices = await driver.discover();
    expect(devices).toHaveLength(40);
    expect(() => normalizeHostReport({ hostname: 'compute-00042', devices })).not.toThrow();
  });

  it('is the same host for the same seed and another for another seed', async () => {
    const [a, b, c] = [simulated({ seed: 's1' }), simulated({ seed: 's1' }), simulated({ seed: 's2' })].map(({ driver }) => driver);
    expect(await a.discover()).toEqual(await b.discover());
    expect((await c.discover()).map((device) => device.pciAddress)).not.toEqual((await a.discover()).map((device) => device.pciAddress));
    expect(await a.health()).toEqual(await b.health());
    expect(await a.health()).toEqual(await b.health());
  });

  it('reuses its picture until an operation changes it', async () => {
    const { driver } = simulated();
    const first = await driver.discover();
    expect(await driver.discover()).toBe(first);

    const evidence = await driver.program!({ pciAddress: first[0].pciAddress, image: IMAGE });

    const after = await driver.discover();
    expect(after).not.toBe(first);
    expect(after[0].deployables[0].traits).toContain(`CUSTOM_FPGA_FUNCTION_ID_INTEL_${String(evidence.functionId).toUpperCase()}`);
  });

  it('programs the same function from the same image on every host, and reports the previous one', async () => {
    const one = simulated({}, 'compute-1').driver;
    const two = simulated({}, 'compute-2').driver;
    const [fpgaOne] = await one.discover();
    const [fpgaTwo] = await two.discover();
    const first = await one.program!({ pciAddress: fpgaOne.pciAddress, image: IMAGE });
    const second = await two.program!({ pciAddress: fpgaTwo.pciAddress, image: IMAGE });
    expect(first.functionId).toBe(second.functionId);
    expect(first).toEqual({ functionId: expect.stringMatching(/^[0-9a-f]{32}$/), sha256: IMAGE.sha256, previousFunctionId: null, region: 0 });
    expect(await one.program!({ pciAddress: fpgaOne.pciAddress, image: { ...IMAGE, sha256: 'cd'.repeat(32) } })).toMatchObject({ previousFunctionId: first.functionId });
  });

  it('programs a multi-region card region by region: the region named, or the one a VF serves, and no other', async () => {
    const { driver } = simulated({ fpgaRegions: 2, fpgaVfs: 2 });
    const [fpga] = await driver.discover();
    const first = await driver.program!({ pciAddress: fpga.pciAddress, image: IMAGE });
    expect(first).toMatchObject({ region: 0 });
    const second = await driver.program!({ pciAddress: fpga.pciAddress, region: 'region1', image: { ...IMAGE, sha256: 'cd'.repeat(32) } });
    expect(second).toMatchObject({ region: 1, previousFunctionId: null });
    // Region 0 still holds the first function: loading region 1 left it alone.
    expect(await driver.program!({ pciAddress: fpga.pciAddress, region: 0, image: IMAGE })).toMatchObject({ region: 0, previousFunctionId: first.functionId });
    const servesRegion1 = fpga.deployables.find((deployable) => deployable.name?.endsWith('_region1'))!.attachHandles[0]!.address;
    expect(await driver.program!({ pciAddress: servesRegion1, image: IMAGE })).toMatchObject({ region: 1, previousFunctionId: second.functionId });
    await expect(driver.program!({ pciAddress: fpga.pciAddress, region: 'region2', image: IMAGE })).rejects.toThrow(/region must name one of the card's 2/);
  });

  it('loads a shell: its interface id is named by the image, read back, and the regions behind it come up blank on that interface', async () => {
    const one = simulated({ fpgaRegions: 2 }, 'compute-1').driver;
    const two = simulated({ fpgaRegions: 2 }, 'compute-2').driver;
    const [fpga] = await one.discover();
    const factoryRegionTrait = fpga.deployables[0].traits.find((trait) => trait.startsWith('CUSTOM_FPGA_REGION_INTEL_'))!;
    const previousInterfaceId = factoryRegionTrait.slice('CUSTOM_FPGA_REGION_INTEL_'.length).toLowerCase();
    const { functionId } = await one.program!({ pciAddress: fpga.pciAddress, image: IMAGE });

    const shell = await one.program!({ pciAddress: fpga.pciAddress, target: 'shell', image: { ...IMAGE, sha256: 'cd'.repeat(32) } });
    expect(shell).toEqual({ target: 'shell', interfaceId: expect.stringMatching(/^[0-9a-f]{32}$/), previousInterfaceId, sha256: 'cd'.repeat(32), regionsCleared: 2 });
    expect(shell.interfaceId).not.toBe(previousInterfaceId);
    const [twoFpga] = await two.discover();
    expect((await two.program!({ pciAddress: twoFpga.pciAddress, target: 'shell', image: { ...IMAGE, sha256: 'cd'.repeat(32) } })).interfaceId).toBe(shell.interfaceId);

    const [reloaded] = await one.discover();
    const traits = reloaded.deployables[0].traits;
    expect(traits).toContain(`CUSTOM_FPGA_REGION_INTEL_${String(shell.interfaceId).toUpperCase()}`);
    expect(traits).not.toContain(`CUSTOM_FPGA_FUNCTION_ID_INTEL_${String(functionId).toUpperCase()}`);
    expect(reloaded.boardInfo.interface_id.split(',')[0]).toBe(shell.interfaceId);
    expect(await failureOf(one.program!({ pciAddress: fpga.pciAddress, target: 'flash', image: IMAGE }))).toMatchObject({ code: 'DRIVER.INVALID_PARAMS' });
  });

  it('probes a function: its ids and driver, the instance it serves; an unknown address is not found', async () => {
    const { driver } = simulated({ gpus: 1, nics: 0 });
    const [fpga, gpu] = await driver.discover();
    const vf = fpga.deployables[0].attachHandles[0].address;
    expect(await driver.probe!({ pciAddress: vf })).toEqual({ pciAddress: vf, vendorId: '8086', productId: '09c4', driver: 'dfl-pci' });
    await driver.attach!({ pciAddress: gpu.pciAddress, instanceUuid: INSTANCE });
    expect(await driver.probe!({ pciAddress: gpu.pciAddress, instanceUuid: INSTANCE })).toEqual({
      pciAddress: gpu.pciAddress, vendorId: '10de', productId: '20b5', driver: 'vfio-pci', instanceUuid: INSTANCE,
    });
    expect(await failureOf(driver.probe!({ pciAddress: '0000:ee:00.0' }))).toMatchObject({ code: 'DRIVER.DEVICE_NOT_FOUND', deviceState: 'unchanged' });
  });

  it('cleans released handles with the steps a real driver of the kind runs, and fails a clean when told to', async () => {
    const { driver, slept } = simulated({ fpgas: 0, gpus: 1, nics: 1, nicVfs: 2, latencyMs: { clean: 5 }, failNext: { clean: 1 } });
    const [gpu, nic] = await driver.discover();
    const gpuHandle = { uuid: INSTANCE, type: 'PCI', address: gpu.pciAddress };
    const failed = await failureOf(driver.clean!({ pciAddress: gpu.pciAddress, handles: [gpuHandle] }));
    expect(failed).toMatchObject({ code: 'DRIVER.INJECTED_FAILURE', evidence: { ran: [{ step: expect.stringContaining('GPU memory scrub and reset'), result: 'failed (injected)' }] } });
    await expect(driver.clean!({ pciAddress: gpu.pciAddress, handles: [gpuHandle] })).resolves.toEqual({
      ran: [{ step: `GPU memory scrub and reset of ${gpu.pciAddress} (nvidia-smi --gpu-reset)`, result: 'ok' }],
    });
    const vf = nic.deployables[0].attachHandles[0].address;
    await expect(driver.clean!({ pciAddress: nic.pciAddress, handles: [{ uuid: INSTANCE, type: 'VF', address: vf }] })).resolves.toEqual({
      ran: [{ step: `function-level reset of VF ${vf}`, result: 'ok' }],
    });
    expect(slept).toEqual([5, 5, 5]);
  });

  it('cleans an FPGA held whole by loading its default image (blank): the last tenant\'s function is gone from the report', async () => {
    const { driver } = simulated({ fpgas: 1, fpgaVfs: 0, gpus: 0, nics: 0 });
    const [fpga] = await driver.discover();
    const { functionId } = await driver.program!({ pciAddress: fpga.pciAddress, image: IMAGE });
    const functionTraits = async () => (await driver.discover())[0].deployables[0].traits.filter((trait) => trait.startsWith('CUSTOM_FPGA_FUNCTION_ID_'));
    expect(await functionTraits()).toEqual([`CUSTOM_FPGA_FUNCTION_ID_INTEL_${String(functionId).toUpperCase()}`]);
    await expect(driver.clean!({ pciAddress: fpga.pciAddress, handles: [{ uuid: INSTANCE, type: 'PCI', address: fpga.pciAddress }] })).resolves.toEqual({
      ran: [{ step: `region of ${fpga.pciAddress} reprogrammed to its default image (blank)`, result: 'ok' }],
    });
    expect(await functionTraits()).toEqual([]);
  });

  describe('failure injection', () => {
    it('fails a probe when told to, and a shell load leaving the old shell in place', async () => {
      const { driver, slept } = simulated({ failNext: { probe: 1, program: 1 }, latencyMs: { probe: 7 } });
      const [fpga] = await driver.discover();
      expect(await failureOf(driver.probe!({ pciAddress: fpga.pciAddress }))).toMatchObject({ code: 'DRIVER.UNREACHABLE', deviceState: 'unchanged' });
      expect(slept).toEqual([7]);
      await expect(driver.probe!({ pciAddress: fpga.pciAddress })).resolves.toMatchObject({ pciAddress: fpga.pciAddress });
      const failed = await failureOf(driver.program!({ pciAddress: fpga.pciAddress, target: 'shell', image: IMAGE }));
      expect(failed).toMatchObject({ code: 'DRIVER.INJECTED_FAILURE', evidence: { interfaceId: failed.evidence.previousInterfaceId } });
      expect((await driver.discover())[0]).toEqual(fpga);
    });

    it('fails the next N of an operation, leaving the device as it was', async () => {
      const { driver } = simulated({ failNext: { program: 1 } });
      const [fpga] = await driver.discover();
      const loaded = await failureOf(driver.program!({ pciAddress: fpga.pciAddress, image: IMAGE }));
      expect(loaded).toMatchObject({ code: 'DRIVER.INJECTED_FAILURE', deviceState: 'region left blank, as before' });

      const { functionId } = await driver.program!({ pciAddress: fpga.pciAddress, image: IMAGE });
      driver.failNext('program', 2);
      for (let attempt = 0; attempt < 2; attempt++) {
        expect(await failureOf(driver.program!({ pciAddress: fpga.pciAddress, image: { ...IMAGE, sha256: 'cd'.repeat(32) } }))).toMatchObject({
          code: 'DRIVER.INJECTED_FAILURE',
          deviceState: `previous function ${functionId} restored`,
          evidence: { functionId, restored: true },
        });
      }
      expect((await driver.discover())[0].deployables[0].traits).toContain(`CUSTOM_FPGA_FUNCTION_ID_INTEL_${String(functionId).toUpperCase()}`);
      await expect(driver.program!({ pciAddress: fpga.pciAddress, image: IMAGE })).resolves.toMatchObject({ functionId });
    });

    it('draws failures from the seed: the same seed fails the same calls', async () => {
      const outcomes = async (seed: string) => {
        const { driver } = simulated({ seed, failureRate: { attach: 0.5 } });
        const nic = (await driver.discover())[3];
        const results: boolean[] = [];
        for (let call = 0; call < 20; call++) {
          const address = nic.deployables[0].attachHandles[call % 4].address;
          results.push(await driver.attach!({ pciAddress: address, instanceUuid: INSTANCE }).then(() => true, () => false));
          await driver.detach!({ pciAddress: address, instanceUuid: INSTANCE });
        }
        return results;
      };
      const first = await outcomes('seed-a');
      expect(await outcomes('seed-a')).toEqual(first);
      expect(first).toContain(true);
      expect(first).toContain(false);
    });

    it('can fail discovery and health checks themselves', async () => {
      const { driver } = simulated({ failureRate: { discover: 1 }, failNext: { health: 1 } });
      await expect(driver.discover()).rejects.toThrow('simulated discovery failure');
      await expect(driver.health()).rejects.toThrow('simulated health check failure');
      await expect(driver.health()).resolves.toHaveLength(4);
    });

    it('waits out each operation\'s latency', async () => {
      const { driver, slept } = simulated({ latencyMs: { program: 250, discover: 5 } });
      const [fpga] = await driver.discover();
      await driver.program!({ pciAddress: fpga.pciAddress, image: IMAGE });
      await driver.health();
      expect(slept).toEqual([5, 250]);
    });
  });

  it('configures VFs, refusing while one is passed through', async () => {
    const { driver } = simulated();
    const nic = (await driver.discover())[3];
    expect(await driver.configureVfs!({ pciAddress: nic.pciAddress, numVfs: 8 })).toEqual({ numVfs: 8, previousNumVfs: 4, changed: true });
    expect((await driver.discover())[3].deployables[0].count).toBe(8);
    const lastVf = (await driver.discover())[3].deployables[0].attachHandles[7].address;
    await driver.attach!({ pciAddress: lastVf, instanceUuid: INSTANCE });
    expect(await failureOf(driver.configureVfs!({ pciAddress: nic.pciAddress, numVfs: 2 }))).toMatchObject({ code: 'DRIVER.DEVICE_BUSY', deviceState: 'unchanged' });
    expect(await failureOf(driver.configureVfs!({ pciAddress: nic.pciAddress, numVfs: 65 }))).toMatchObject({ code: 'DRIVER.INVALID_PARAMS' });
  });

  it('creates and removes vGPUs up to the type\'s instances', async () => {
    const { driver } = simulated({ gpus: 1, vgpuType: 'nvidia-700', vgpuInstances: 1 });
    const gpu = (await driver.discover())[1];
    const params = { pciAddress: gpu.pciAddress, mdevType: 'nvidia-700', mdevUuid: INSTANCE };
    expect(await driver.createMdev!(params)).toMatchObject({ mdevUuid: INSTANCE, changed: true });
    expect(await driver.createMdev!(params)).toMatchObject({ changed: false });
    expect(await failureOf(driver.createMdev!({ ...params, mdevUuid: '8e4d2f9a-0c3b-4d6e-9f70-2b3c4d5e6f70' }))).toMatchObject({ code: 'DRIVER.NO_CAPACITY' });
    expect(await failureOf(driver.createMdev!({ ...params, mdevType: 'nvidia-701' }))).toMatchObject({ code: 'DRIVER.INVALID_PARAMS' });
    expect(await driver.removeMdev!(params)).toEqual({ mdevUuid: INSTANCE, changed: true });
    expect(await failureOf(driver.attach!({ pciAddress: gpu.pciAddress, instanceUuid: INSTANCE }))).toMatchObject({ code: 'DRIVER.INVALID_PARAMS' });
  });

  it('passes a PGPU through and back, which the report shows as its driver', async () => {
    const { driver } = simulated();
    const gpu = (await driver.discover())[1];
    expect(await driver.attach!({ pciAddress: gpu.pciAddress, instanceUuid: INSTANCE })).toEqual({ pciAddress: gpu.pciAddress, driver: 'vfio-pci', previousDriver: 'nvidia', changed: true });
    expect((await driver.discover())[1].driver).toBe('vfio-pci');
    expect(await driver.detach!({ pciAddress: gpu.pciAddress, instanceUuid: INSTANCE })).toEqual({ pciAddress: gpu.pciAddress, driver: 'nvidia', changed: true });
    expect(await failureOf(driver.attach!({ pciAddress: '0000:ff:00.0', instanceUuid: INSTANCE }))).toMatchObject({ code: 'DRIVER.DEVICE_NOT_FOUND' });
  });

  it('passes an FPGA named by its own address through as its first free VF, and says why when it cannot', async () => {
    const { driver } = simulated({ fpgaVfs: 2, gpus: 1, vgpuType: 'nvidia-700' });
    const [fpga, gpu] = await driver.discover();
    const [vf0, vf1] = fpga.deployables[0].attachHandles.map((handle) => handle.address);
    const attach = (pciAddress: string) => driver.attach!({ pciAddress, instanceUuid: INSTANCE });

    expect(await attach(fpga.pciAddress)).toEqual({ pciAddress: vf0, driver: 'vfio-pci', previousDriver: 'dfl-pci', changed: true });
    expect(await attach(fpga.pciAddress)).toMatchObject({ pciAddress: vf1, changed: true });
    expect(await failureOf(attach(fpga.pciAddress))).toMatchObject({
      code: 'DRIVER.DEVICE_BUSY',
      message: `every handle of ${fpga.pciAddress} is passed through already (${vf0}, ${vf1}); detach one first`,
    });
    expect(await failureOf(driver.detach!({ pciAddress: fpga.pciAddress, instanceUuid: INSTANCE }))).toMatchObject({
      code: 'DRIVER.INVALID_PARAMS',
      message: `${fpga.pciAddress} has 2 functions passed through (${vf0}, ${vf1}); name the one to detach`,
    });
    expect(await driver.detach!({ pciAddress: vf1, instanceUuid: INSTANCE })).toMatchObject({ pciAddress: vf1, changed: true });
    expect(await driver.detach!({ pciAddress: fpga.pciAddress, instanceUuid: INSTANCE })).toMatchObject({ pciAddress: vf0, changed: true });
    expect(await failureOf(attach(gpu.pciAddress))).toMatchObject({
      code: 'DRIVER.INVALID_PARAMS',
      message: `${gpu.pciAddress} cannot be passed through: it has no PCI or VF handle (a GPU that serves vGPUs is shared as mdevs)`,
    });
  });

  it('follows its degradation script by health check, and holds a health set at run time', async () => {
    const { driver } = simulated({ degradations: [{ device: 'gpu1', fromCheck: 2, toCheck: 3, health: 'failed', reason: 'Xid 79', cause: { kind: 'xid', code: 79 } }] });
    const gpu1 = driver.devices().find((device) => device.key === 'gpu1')!.pciAddress;
    const healthOfGpu1 = async () => (await driver.health()).find((sample) => sample.pciAddress === gpu1)!;

    expect(await healthOfGpu1()).toMatchObject({ health: 'ok', reason: null });
    expect(await healthOfGpu1()).toMatchObject({ health: 'failed', reason: 'Xid 79', cause: { kind: 'xid', code: 79 } });
    expect(await healthOfGpu1()).toMatchObject({ health: 'failed' });
    expect(await healthOfGpu1()).toMatchObject({ health: 'ok' });

    driver.setHealth('gpu1', 'degraded', 'ECC', { kind: 'ecc', detail: 'uncorrected', count: 3 });
    expect(await healthOfGpu1()).toMatchObject({ health: 'degraded', reason: 'ECC', cause: { kind: 'ecc', detail: 'uncorrected', count: 3 }, telemetry: expect.objectContaining({ memoryUsedGiB: expect.any(Number) }) });
    driver.setHealth('gpu1', null);
    expect(await healthOfGpu1()).toMatchObject({ health: 'ok' });
  });

  it('refuses settings it does not know', () => {
    expect(() => parseSimulatedSettings({ latencyMs: { flash: 5 } }, 'h')).toThrow('AGENT_DRIVER_CONFIG: simulated.latencyMs.flash is not a setting of simulated.latencyMs');
    expect(() => parseSimulatedSettings({ degradations: [{ device: 'tpu0' }] }, 'h')).toThrow('simulated.degradations[0].device must name a simulated device');
    expect(() => parseSimulatedSettings({ degradations: [{ device: 'gpu0', cause: { kind: 'xid', code: -1 } }] }, 'h')).toThrow('simulated.degradations[0].cause.code must be an integer from 0');
    expect(() => parseSimulatedSettings({ failureRate: 2 }, 'h')).toThrow('simulated.failureRate must be a number from 0 to 1');
  });

  describe('MIG mode', () => {
    const migHost = () => simulated({ fpgas: 0, gpus: 1, nics: 0, gpuMig: true });

    it('reports an A100 in MIG mode as its partitioning, which the ledger accepts, with room to carve every profile', async () => {
      const { driver } = migHost();
      const [gpu] = await driver.discover();
      expect(gpu.deployables).toEqual([]);
      expect(gpu.partitioning).toMatchObject({ kind: 'MIG', enabled: true, slices: 8, partitions: [] });
      const normalized = normalizeHostReport({ hostname: 'compute-00042', devices: [gpu] }).devices[0];
      expect(normalized.deployables.find((deployable) => deployable.resourceClass === 'CUSTOM_MIG_1G_10GB')).toMatchObject({ count: 7 });
    });

    it('carves a GPU instance where it fits, refuses one that does not, and destroys it', async () => {
      const { driver } = migHost();
      const pciAddress = driver.devices()[0].pciAddress;
      const carved = await driver.carve!({ pciAddress, profile: '3g.40gb', start: 4 });
      expect(carved).toMatchObject({ profile: '3g.40gb', start: 4, slices: 4, gpuInstanceId: 1, computeInstanceId: 0, handle: expect.stringMatching(/^MIG-/), changed: true });
      const { changed: _, ...partition } = carved;
      expect((await driver.discover())[0].partitioning!.partitions).toEqual([partition]);
      expect(await failureOf(driver.carve!({ pciAddress, profile: '7g.80gb', start: 0 }))).toMatchObject({ code: 'DRIVER.NO_CAPACITY', deviceState: 'unchanged' });
      expect(await failureOf(driver.carve!({ pciAddress, profile: '2g.20gb', start: 4 }))).toMatchObject({ code: 'DRIVER.NO_CAPACITY' });
      expect(await driver.destroy!({ pciAddress, handle: carved.handle })).toMatchObject({ handle: carved.handle, changed: true });
      expect(await driver.destroy!({ pciAddress, handle: carved.handle })).toEqual({ handle: carved.handle, changed: false });
      expect((await driver.discover())[0].partitioning!.partitions).toEqual([]);
    });

    it('injects latency and failures into carve and destroy, leaving the GPU as it was', async () => {
      const { driver, slept } = simulated({ fpgas: 0, gpus: 1, nics: 0, gpuMig: true, latencyMs: { carve: 40, destroy: 15 }, failNext: { carve: 1 } });
      const pciAddress = driver.devices()[0].pciAddress;
      expect(await failureOf(driver.carve!({ pciAddress, profile: '1g.10gb', start: 0 }))).toMatchObject({ code: 'DRIVER.INJECTED_FAILURE', deviceState: 'nothing carved' });
      const carved = await driver.carve!({ pciAddress, profile: '1g.10gb', start: 0 });
      driver.failNext('destroy');
      expect(await failureOf(driver.destroy!({ pciAddress, handle: carved.handle }))).toMatchObject({ code: 'DRIVER.INJECTED_FAILURE' });
      expect((await driver.discover())[0].partitioning!.partitions).toHaveLength(1);
      // Half the latency before the GPU changes, half after (the read-back); a failure waits it all.
      expect(slept).toEqual([20, 20, 20, 20, 8, 7]);
    });

    it('finds the GPU instance a carve offered again made before its agent was killed, and keeps the layout across starts with persistMig', async () => {
      const workDir = mkdtempSync(join(tmpdir(), 'simulated-mig-'));
      try {
        const settings = { fpgas: 0, gpus: 1, nics: 0, gpuMig: true, persistMig: true };
        const first = simulated(settings, 'compute-00042', workDir).driver;
        const pciAddress = first.devices()[0].pciAddress;
        const carved = await first.carve!({ pciAddress, profile: '1g.10gb', start: 3 });

        // The agent started again: the GPU still holds the instance, and the same carve answers with it.
        const second = simulated(settings, 'compute-00042', workDir).driver;
        const { changed: _, ...partition } = carved;
        expect((await second.discover())[0].partitioning!.partitions).toEqual([partition]);
        expect(await second.carve!({ pciAddress, profile: '1g.10gb', start: 3 })).toEqual({ ...partition, changed: false });
        await second.destroy!({ pciAddress, handle: carved.handle });
        expect((await simulated(settings, 'compute-00042', workDir).driver.discover())[0].partitioning!.partitions).toEqual([]);
        // Without persistMig every start has empty GPUs.
        expect((await simulated({ ...settings, persistMig: false }, 'compute-00042', workDir).driver.discover())[0].partitioning!.partitions).toEqual([]);
      } finally {
        rmSync(workDir, { recursive: true, force: true });
      }
    });

    it('refuses MIG mode together with a vGPU type', () => {
      expect(() => simulated({ gpuMig: true, vgpuType: 'nvidia-35' })).toThrow(/gpuMig/);
    });
  });
});

