import { appendFile, chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AcceleratorDriver } from '../accelerator-driver';
import { failureOf, fixtureDriverContext, type FixtureDriverContext } from '../testing/driver-test-context';
import { nvidiaGpuDriver } from './nvidia-gpu.driver';
import { parseNvidiaGpuSettings } from './nvidia-gpu.settings';

const EXISTING_MDEV = '6f1d3b0a-8f44-4c1e-9a3e-2b7c1d9e5f20';
const NEW_MDEV = '2f0c9a4e-7b1d-4e55-9c3a-8d6b5e4f3a21';

describe('nvidia-gpu driver (nvidia-gpu fixture)', () => {
  let host: FixtureDriverContext;
  let driver: AcceleratorDriver;
  const create = (settings: Record<string, unknown> = {}) =>
    nvidiaGpuDriver(
      host.context,
      parseNvidiaGpuSettings({
        nvidiaSmiPath: join(host.copy.bin, 'nvidia-smi'),
        vgpuTypes: { '0000:AF:00.0': 'nvidia-223' },
        xidLogPath: join(host.copy.dir, 'kern.log'),
        ...settings,
      }),
    );

  beforeEach(async () => {
    host = await fixtureDriverContext('nvidia-gpu');
    driver = create();
  });
  afterEach(() => host.cleanup());

  const t4Handles = Array.from({ length: 8 }, (_, slot) => ({ kind: 'MDEV', address: '0000:af:00.0', mdevType: 'nvidia-223', slot }));

  it('reports a PGPU per GPU, the configured GPU as VGPU instances, never a VF or another vendor\'s display', async () => {
    expect(await driver.discover()).toEqual([
      {
        type: 'GPU',
        vendorId: '10de',
        productId: '20b5',
        subsystemVendorId: '10de',
        subsystemProductId: '1533',
        model: 'NVIDIA A100 80GB PCIe',
        pciAddress: '0000:3b:00.0',
        boardInfo: { class: '030200', uuid: 'GPU-5a1b2c3d-0e0f-4a1b-8c2d-3e4f5a6b7c8d', mig_mode: 'Disabled' },
        driver: 'nvidia',
        numaNode: 0,
        capacity: { memoryGiB: 80 },
        deployables: [
          { resourceClass: 'PGPU', count: 1, traits: ['OWNER_CYBORG', 'CUSTOM_NVIDIA_20B5'], driverName: 'nvidia-gpu', attachHandles: [{ kind: 'PCI', address: '0000:3b:00.0' }] },
        ],
        // MIG-capable, MIG off: nothing to carve until an operator turns it on.
        partitioning: { kind: 'MIG', enabled: false, slices: 8, profiles: [], partitions: [] },
      },
      {
        type: 'GPU',
        vendorId: '10de',
        productId: '1eb8',
        subsystemVendorId: '10de',
        subsystemProductId: '12a2',
        model: 'NVIDIA T4',
        pciAddress: '0000:af:00.0',
        boardInfo: { class: '030200', uuid: 'GPU-9f8e7d6c-5b4a-4392-8a1b-0c1d2e3f4a5b' },
        driver: 'nvidia',
        numaNode: 1,
        capacity: { memoryGiB: 16 },
        // 7 free instances + the one already created, as Cyborg counts.
        deployables: [{ resourceClass: 'VGPU', count: 8, traits: ['OWNER_CYBORG', 'CUSTOM_NVIDIA_1EB8_T4_2B'], driverName: 'nvidia-gpu', attachHandles: t4Handles }],
      },
      {
        type: 'GPU',
        vendorId: '10de',
        productId: '1eb8',
        subsystemVendorId: '10de',
        subsystemProductId: '12a2',
        model: 'NVIDIA T4',
        pciAddress: '0000:d8:00.0',
        boardInfo: { class: '030200' },
        driver: 'vfio-pci',
        numaNode: 1,
        capacity: { memoryGiB: 16 },
        deployables: [
          { resourceClass: 'PGPU', count: 1, traits: ['OWNER_CYBORG', 'CUSTOM_NVIDIA_1EB8'], driverName: 'nvidia-gpu', attachHandles: [{ kind: 'PCI', address: '0000:d8:00.0' }] },
        ],
      },
    ]);
    expect(host.warnings).toEqual([]);
  });

  it('puts the vGPU handles on the VFs of a GPU whose vGPUs live there (A100 with SR-IOV)', async () => {
    for (const vf of ['0000:3b:00.4', '0000:3b:00.5']) {
      const type = join(host.copy.root, 'bus/pci/devices', vf, 'mdev_supported_types', 'nvidia-700');
      await mkdir(type, { recursive: true });
      await writeFile(join(type, 'name'), 'NVIDIA A100D-40C\n');
      await writeFile(join(type, 'available_instances'), '1\n');
    }
    driver = create({ vgpuTypes: { '0000:3b:00.0': 'nvidia-700' } });

    const a100 = (await driver.discover()).find((device) => device.pciAddress === '0000:3b:00.0');

    expect(a100?.deployables).toEqual([
      {
        resourceClass: 'VGPU',
        count: 2,
        traits: ['OWNER_CYBORG', 'CUSTOM_NVIDIA_20B5_A100D_40C'],
        driverName: 'nvidia-gpu',
        attachHandles: [
          { kind: 'MDEV', address: '0000:3b:00.4', mdevType: 'nvidia-700', slot: 0 },
          { kind: 'MDEV', address: '0000:3b:00.5', mdevType: 'nvidia-700', slot: 0 },
        ],
      },
    ]);
  });

  it('reports a configured vGPU type the GPU does not offer with no instances, and says so', async () => {
    driver = create({ vgpuTypes: { '0000:d8:00.0': 'nvidia-223' } });

    const passedThrough = (await driver.discover()).find((device) => device.pciAddress === '0000:d8:00.0');

    expect(passedThrough?.deployables[0]).toMatchObject({ resourceClass: 'VGPU', count: 0, attachHandles: [] });
    expect(host.warnings).toEqual([expect.stringContaining('0000:d8:00.0 is configured for vGPU type nvidia-223 but offers none now (driver vfio-pci)')]);
  });

  describe('health', () => {
    it('reads nvidia-smi: telemetry, uncorrected ECC as degraded; a passed-through GPU only by AER; application Xids ignored', async () => {
      expect(await driver.health()).toEqual([
        {
          pciAddress: '0000:3b:00.0',
          health: 'ok',
          reason: null,
          telemetry: { aerFatal: 0, aerNonFatal: 0, utilizationPct: 37, temperatureC: 61, memoryUsedGiB: 12.5, memoryTotalGiB: 80, powerW: 180.25, eccUncorrected: 0 },
        },
        {
          pciAddress: '0000:af:00.0',
          health: 'degraded',
          reason: 'ECC: 2 uncorrected error(s)',
          cause: { kind: 'ecc', detail: 'uncorrected', count: 2 },
          telemetry: { utilizationPct: 5, temperatureC: 44, memoryUsedGiB: 1, memoryTotalGiB: 15, powerW: 32.1, eccUncorrected: 2 },
        },
        { pciAddress: '0000:d8:00.0', health: 'ok', reason: null, telemetry: {} },
      ]);
    });

    it('fails a GPU on a critical Xid in the kernel log', async () => {
      await appendFile(join(host.copy.dir, 'kern.log'), 'Nov 22 04:02:11 compute-1 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus.\n');

      const a100 = (await driver.health())[0];

      expect(a100).toMatchObject({ pciAddress: '0000:3b:00.0', health: 'failed', reason: 'Xid 79: GPU has fallen off the bus', cause: { kind: 'xid', code: 79 } });
    });

    it('reads row remapping from nvidia-smi: pending degrades, failed fails, each with its cause', async () => {
      const csv = join(host.copy.bin, 'nvidia-smi.csv');
      const [a100, t4] = (await readFile(csv, 'utf8')).split('\n');
      await writeFile(csv, `${a100.replace(/No, No$/, 'Yes, No')}\n${t4}\n`);
      expect((await driver.health())[0]).toMatchObject({ health: 'degraded', reason: 'row remap pending a GPU reset', cause: { kind: 'row-remap', detail: 'pending' } });
      await writeFile(csv, `${a100.replace(/No, No$/, 'Yes, Yes')}\n${t4}\n`);
      driver = create(); // one nvidia-smi run serves a heartbeat's checks: a fresh driver reads the file again
      expect((await driver.health())[0]).toMatchObject({ health: 'failed', reason: 'row remapping failed; row remap pending a GPU reset', cause: { kind: 'row-remap', detail: 'failed' } });
    });

    it('fails a GPU bound to nvidia that nvidia-smi no longer lists', async () => {
      const csv = join(host.copy.bin, 'nvidia-smi.csv');
      await writeFile(csv, (await readFile(csv, 'utf8')).split('\n')[0] + '\n');

      expect((await driver.health())[1]).toMatchObject({ pciAddress: '0000:af:00.0', health: 'failed', reason: 'bound to nvidia but not visible to nvidia-smi' });
    });

    it('degrades the GPUs on the nvidia driver when nvidia-smi itself fails', async () => {
      const broken = join(host.copy.bin, 'nvidia-smi-broken');
      await writeFile(broken, "#!/bin/sh\necho \"NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\"\nexit 9\n");
      await chmod(broken, 0o755);
      driver = create({ nvidiaSmiPath: broken });

      const samples = await driver.health();

      const reason = "nvidia-smi exited with 9: NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.";
      expect(samples.map((sample) => [sample.pciAddress, sample.health, sample.reason])).toEqual([
        ['0000:3b:00.0', 'degraded', reason],
        ['0000:af:00.0', 'degraded', reason],
        ['0000:d8:00.0', 'ok', null],
      ]);
    });

    it('works from sysfs alone without nvidia-smi, warning once', async () => {
      driver = create({ nvidiaSmiPath: join(host.copy.bin, 'absent-nvidia-smi') });

      const devices = await driver.discover();
      const samples = await driver.health();

      expect(devices.map((device) => device.boardInfo)).toEqual([{ class: '030200' }, { class: '030200' }, { class: '030200' }]);
      expect(samples.map((sample) => sample.health)).toEqual(['ok', 'ok', 'ok']);
      expect(host.warnings).toEqual([expect.stringContaining('no ' + join(host.copy.bin, 'absent-nvidia-smi'))]);
    });
  });

  describe('vGPU mdevs', () => {
    it('creates an mdev, and creating it again is success without a second one', async () => {
      const params = { pciAddress: '0000:af:00.0', mdevType: 'nvidia-223', mdevUuid: NEW_MDEV };
      const path = join(host.copy.root, 'bus/pci/devices/0000:af:00.0', NEW_MDEV);

      expect(await driver.createMdev!(params)).toEqual({ mdevUuid: NEW_MDEV, mdevType: 'nvidia-223', path, changed: true });
      expect(await driver.createMdev!(params)).toEqual({ mdevUuid: NEW_MDEV, mdevType: 'nvidia-223', path, changed: false });

      const t4 = (await driver.discover())[1];
      expect(t4.deployables[0]).toMatchObject({ count: 8, attachHandles: t4Handles });
      const available = await readFile(join(host.copy.root, 'bus/pci/devices/0000:af:00.0/mdev_supported_types/nvidia-223/available_instances'), 'utf8');
      expect(available.trim()).toBe('6');
    });

    it('removes an mdev; removing one that is gone is success', async () => {
      const params = { pciAddress: '0000:af:00.0', mdevUuid: EXISTING_MDEV };
      expect(await driver.removeMdev!(params)).toEqual({ mdevUuid: EXISTING_MDEV, changed: true });
      expect(await driver.removeMdev!(params)).toEqual({ mdevUuid: EXISTING_MDEV, changed: false });
    });

    it('refuses what the GPU cannot do, touching nothing', async () => {
      const create = (params: Record<string, unknown>) => failureOf(driver.createMdev!({ mdevUuid: NEW_MDEV, ...params }));
      expect(await create({ pciAddress: '0000:af:00.0', mdevType: 'nvidia-222' })).toMatchObject({ code: 'DRIVER.NO_CAPACITY', deviceState: 'unchanged' });
      expect(await create({ pciAddress: '0000:af:00.0', mdevType: 'nvidia-999' })).toMatchObject({
        code: 'DRIVER.INVALID_PARAMS',
        message: '0000:af:00.0 does not offer mdev type nvidia-999 (offers: nvidia-222, nvidia-223)',
      });
      expect(await create({ pciAddress: '0000:af:00.0', mdevType: 'nvidia-222', mdevUuid: EXISTING_MDEV })).toMatchObject({ code: 'DRIVER.DEVICE_BUSY' });
      expect(await create({ pciAddress: '0000:03:00.0', mdevType: 'nvidia-223' })).toMatchObject({ code: 'DRIVER.DEVICE_NOT_FOUND' });
      expect(await create({ pciAddress: '0000:af:00.0', mdevType: 'nvidia-223', mdevUuid: 'not-a-uuid' })).toMatchObject({ code: 'DRIVER.INVALID_PARAMS' });
    });
  });

  describe('attach and detach', () => {
    it('passes a PGPU through to vfio-pci and gives it back to nvidia', async () => {
      const params = { pciAddress: '0000:3b:00.0', instanceUuid: NEW_MDEV };
      expect(await driver.attach!(params)).toEqual({ pciAddress: params.pciAddress, driver: 'vfio-pci', previousDriver: 'nvidia', changed: true });
      expect((await driver.discover())[0].driver).toBe('vfio-pci');
      expect(await driver.detach!(params)).toEqual({ pciAddress: params.pciAddress, driver: 'nvidia', changed: true });
    });

    it('does not pass through a GPU that serves vGPUs', async () => {
      expect(await failureOf(driver.attach!({ pciAddress: '0000:af:00.0', instanceUuid: NEW_MDEV }))).toMatchObject({
        code: 'DRIVER.INVALID_PARAMS',
        message: '0000:af:00.0 cannot be passed through: it has no PCI or VF handle (a GPU that serves vGPUs is shared as mdevs)',
      });
    });
  });
});
