import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SysfsReader } from './sysfs-reader';
import { copyFixture, recordingLogger, type FixtureCopy } from './testing/sysfs-fixtures';

describe('SysfsReader', () => {
  let gpuHost: FixtureCopy;
  let brokenHost: FixtureCopy;
  beforeAll(async () => {
    [gpuHost, brokenHost] = await Promise.all([copyFixture('nvidia-gpu'), copyFixture('broken')]);
  });
  afterAll(() => Promise.all([gpuHost.remove(), brokenHost.remove()]));

  describe('on a host with GPUs (nvidia-gpu fixture)', () => {
    const logger = recordingLogger();
    let reader: SysfsReader;
    beforeAll(() => {
      reader = new SysfsReader({ root: gpuHost.root, logger });
    });

    it('reads every function, following bus/pci/devices links into devices/, sorted by address', async () => {
      const functions = await reader.scanPci();
      expect(functions.map((fn) => fn.address)).toEqual(['0000:03:00.0', '0000:3b:00.0', '0000:3b:00.4', '0000:3b:00.5', '0000:af:00.0', '0000:d8:00.0']);
      expect(logger.warnings).toEqual([]);
    });

    it('reads ids, class, driver, NUMA node, SR-IOV, VF links and AER totals of a PF', async () => {
      const a100 = (await reader.scanPci()).find((fn) => fn.address === '0000:3b:00.0');
      expect(a100).toEqual({
        address: '0000:3b:00.0',
        path: join(gpuHost.root, 'devices', 'pci0000:3a', '0000:3a:00.0', '0000:3b:00.0'),
        classCode: '030200',
        vendorId: '10de',
        productId: '20b5',
        subsystemVendorId: '10de',
        subsystemProductId: '1533',
        driver: 'nvidia',
        numaNode: 0,
        sriov: { totalVfs: 20, numVfs: 2 },
        virtualFunctions: ['0000:3b:00.4', '0000:3b:00.5'],
        physicalFunction: null,
        mdevTypes: [],
        mdevs: [],
        netInterfaces: [],
        aer: { fatal: 0, nonFatal: 0 },
      });
    });

    it('links a VF to its PF', async () => {
      const vf = (await reader.scanPci()).find((fn) => fn.address === '0000:3b:00.5');
      expect(vf).toMatchObject({ physicalFunction: '0000:3b:00.0', sriov: null, virtualFunctions: [], driver: 'nvidia' });
    });

    it('reads mdev types and the mdevs that exist', async () => {
      const t4 = (await reader.scanPci()).find((fn) => fn.address === '0000:af:00.0');
      expect(t4?.mdevTypes).toEqual([
        { id: 'nvidia-222', name: 'GRID T4-1B', availableInstances: 0, deviceApi: 'vfio-pci' },
        { id: 'nvidia-223', name: 'GRID T4-2B', availableInstances: 7, deviceApi: 'vfio-pci' },
      ]);
      expect(t4?.mdevs).toEqual([{ uuid: '6f1d3b0a-8f44-4c1e-9a3e-2b7c1d9e5f20', type: 'nvidia-223' }]);
    });

    it('reports no NUMA node as null and an unbound-or-other driver by name', async () => {
      const functions = await reader.scanPci();
      expect(functions.find((fn) => fn.address === '0000:03:00.0')).toMatchObject({ numaNode: null, driver: 'ast', classCode: '030000' });
      expect(functions.find((fn) => fn.address === '0000:d8:00.0')).toMatchObject({ driver: 'vfio-pci', numaNode: 1 });
    });
  });

  describe('on a broken tree', () => {
    it('skips every unreadable or odd entry with a warning and never throws', async () => {
      const logger = recordingLogger();
      const reader = new SysfsReader({ root: brokenHost.root, logger });

      const functions = await reader.scanPci();

      expect(functions.map((fn) => fn.address)).toEqual(['0000:00:00.0', '0000:04:00.0']);
      const warnings = logger.warnings.join('\n');
      const skipped = [
        /0000:01:00\.0\/vendor: "garbage" is not a PCI vendor id/,
        /0000:02:00\.0\/device: missing/,
        /0000:03:00\.0\/vendor: EISDIR/,
        /0000:05:00\.0: dangling link/,
        /0000:06:00\.0\/class: "0x03" is not a PCI class/,
        /0000:07:00\.1\/physfn: dangling link .*cannot tell which PF/,
        /not-a-pci-address: "not-a-pci-address" is not a PCI address/,
      ];
      for (const pattern of skipped) expect(warnings).toMatch(pattern);
    });

    it('keeps a function whose optional parts are odd, leaving out only those parts', async () => {
      const logger = recordingLogger();
      const reader = new SysfsReader({ root: brokenHost.root, logger });

      const gpu = (await reader.scanPci()).find((fn) => fn.address === '0000:04:00.0');

      expect(gpu).toMatchObject({
        vendorId: '10de',
        productId: '1eb8',
        subsystemVendorId: null,
        subsystemProductId: '12a2',
        driver: null,
        numaNode: null,
        sriov: null,
        virtualFunctions: [],
        mdevTypes: [{ id: 'nvidia-223', name: 'GRID T4-2B', availableInstances: 8, deviceApi: 'vfio-pci' }],
        mdevs: [],
        aer: null,
      });
      const warnings = logger.warnings.join('\n');
      for (const pattern of [
        /0000:04:00\.0\/subsystem_vendor: "0xzz" is not a PCI id/,
        /0000:04:00\.0\/driver: dangling link .*reported as unbound/,
        /0000:04:00\.0\/numa_node: "banana" is not a NUMA node/,
        /0000:04:00\.0\/sriov_totalvfs: "x": SR-IOV left out/,
        /0000:04:00\.0\/virtfn0: dangling link .*VF left out/,
        /nvidia-222\/available_instances: "lots": mdev type nvidia-222 left out/,
        /0d4bc1e2-5c3a-4f3e-8a1b-9c8d7e6f5a4b\/mdev_type: dangling link .*mdev left out/,
        /0000:04:00\.0\/aer_dev_fatal: has no TOTAL_ERR_FATAL count/,
      ]) {
        expect(warnings).toMatch(pattern);
      }
    });

    it('finds nothing, with one warning, when there is no PCI bus directory at all', async () => {
      const empty = await mkdtemp(join(tmpdir(), 'sysfs-empty-'));
      try {
        const logger = recordingLogger();
        await expect(new SysfsReader({ root: empty, logger }).scanPci()).resolves.toEqual([]);
        expect(logger.warnings).toEqual([expect.stringMatching(/bus\/pci\/devices: missing; no PCI device can be discovered/)]);
      } finally {
        await rm(empty, { recursive: true, force: true });
      }
    });
  });

  describe('scan sharing', () => {
    it('shares one scan within scanReuseMs and rescans after it, or at once after a write', async () => {
      let now = 1_000;
      const written: string[] = [];
      const reader = new SysfsReader({
        root: gpuHost.root,
        logger: recordingLogger(),
        scanReuseMs: 500,
        now: () => now,
        write: async (path) => void written.push(path),
      });
      const first = reader.scanPci();
      now += 499;
      expect(reader.scanPci()).toBe(first);
      now += 1;
      const second = reader.scanPci();
      expect(second).not.toBe(first);
      await reader.write('bus/pci/drivers_probe', '0000:3b:00.0');
      expect(reader.scanPci()).not.toBe(second);
      expect(written).toEqual([join(gpuHost.root, 'bus/pci/drivers_probe')]);
    });
  });
});
