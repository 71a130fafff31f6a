import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AcceleratorDriver } from '../accelerator-driver';
import { failureOf, fixtureDriverContext, type FixtureDriverContext } from '../testing/driver-test-context';
import { intelFpgaDriver } from './intel-fpga.driver';
import { parseIntelFpgaSettings } from './intel-fpga.settings';

const A10_VF_AFU = 'd8424dc4a4a3c413f89e433683f9040b';
const NEW_AFU = '7a5f3b2c1d0e4f6a8b9c0d1e2f3a4b5c';
const OTHER_AFU = '11111111222233334444555566667777';

describe('intel-fpga driver (intel-fpga fixture)', () => {
  let host: FixtureDriverContext;
  let driver: AcceleratorDriver;

  beforeEach(async () => {
    host = await fixtureDriverContext('intel-fpga');
    driver = intelFpgaDriver(host.context, parseIntelFpgaSettings({ fpgaconfPath: join(host.copy.bin, 'fpgaconf') }, host.context.workDir));
  });
  afterEach(() => host.cleanup());

  const afuOfVf = () => readFile(join(host.copy.root, 'bus/pci/devices/0000:5e:00.1/fpga_region/region2/dfl-port.0/afu_id'), 'utf8');
  const traitsOf = async (address: string) => (await driver.discover()).find((device) => device.pciAddress === address)?.deployables[0].traits;

  it('reports each PF as one FPGA deployable: per VF with SR-IOV on, else the PF; region and loaded AFUs as traits', async () => {
    expect(await driver.discover()).toEqual([
      {
        type: 'FPGA',
        vendorId: '8086',
        productId: '09c4',
        subsystemVendorId: '8086',
        subsystemProductId: '0000',
        model: 'Intel PAC Arria 10 GX',
        pciAddress: '0000:5e:00.0',
        boardInfo: { class: '120000', interface_id: 'f3c9941350814aadbced07eb84a6d0bb' },
        driver: 'dfl-pci',
        numaNode: 1,
        deployables: [
          {
            resourceClass: 'FPGA',
            count: 1,
            traits: [
              'OWNER_CYBORG',
              'CUSTOM_FPGA_INTEL',
              'CUSTOM_FPGA_INTEL_PAC_ARRIA10',
              'CUSTOM_FPGA_REGION_INTEL_F3C9941350814AADBCED07EB84A6D0BB',
              'CUSTOM_FPGA_FUNCTION_ID_INTEL_D8424DC4A4A3C413F89E433683F9040B',
            ],
            driverName: 'intel-fpga',
            attachHandles: [{ kind: 'VF', address: '0000:5e:00.1' }],
          },
        ],
        partitioning: { kind: 'FPGA_REGION', enabled: true, slices: 1, profiles: [{ name: 'region', slices: 1, maxCount: 1 }], partitions: [{ profile: 'region', handle: 'region1', start: 0, slices: 1 }] },
      },
      {
        type: 'FPGA',
        vendorId: '8086',
        productId: '09c4',
        subsystemVendorId: '8086',
        subsystemProductId: '0000',
        model: 'Intel PAC Arria 10 GX',
        pciAddress: '0000:86:00.0',
        // OPAE's older driver prints the interface id with dashes; Cyborg put them into the trait, which Placement refuses.
        boardInfo: { class: '120000', interface_id: 'ce48969a3aa84b2ea4d43c4a2ad6a5c5' },
        driver: 'intel-fpga-pci',
        numaNode: 1,
        deployables: [
          {
            resourceClass: 'FPGA',
            count: 1,
            traits: ['OWNER_CYBORG', 'CUSTOM_FPGA_INTEL', 'CUSTOM_FPGA_INTEL_PAC_ARRIA10', 'CUSTOM_FPGA_REGION_INTEL_CE48969A3AA84B2EA4D43C4A2AD6A5C5'],
            driverName: 'intel-fpga',
            attachHandles: [{ kind: 'PCI', address: '0000:86:00.0' }],
          },
        ],
        partitioning: { kind: 'FPGA_REGION', enabled: true, slices: 1, profiles: [{ name: 'region', slices: 1, maxCount: 1 }], partitions: [{ profile: 'region', handle: 'intel-fpga-port.0', start: 0, slices: 1 }] },
      },
      {
        type: 'FPGA',
        vendorId: '8086',
        productId: '0b30',
        subsystemVendorId: '8086',
        subsystemProductId: '0000',
        model: 'Intel FPGA PAC N3000',
        pciAddress: '0000:be:00.0',
        boardInfo: { class: '120000', interface_id: '9346116da8495b7dbe35e9a81cba4e0e' },
        driver: 'dfl-pci',
        numaNode: 0,
        deployables: [
          {
            resourceClass: 'FPGA',
            count: 1,
            traits: [
              'OWNER_CYBORG',
              'CUSTOM_FPGA_INTEL',
              'CUSTOM_FPGA_INTEL_PAC_N3000',
              'CUSTOM_FPGA_REGION_INTEL_9346116DA8495B7DBE35E9A81CBA4E0E',
              'CUSTOM_FPGA_FUNCTION_ID_INTEL_C000C9660D824272AA1FCD91D4A8A8E9',
            ],
            driverName: 'intel-fpga',
            attachHandles: [{ kind: 'PCI', address: '0000:be:00.0' }],
          },
        ],
        partitioning: { kind: 'FPGA_REGION', enabled: true, slices: 1, profiles: [{ name: 'region', slices: 1, maxCount: 1 }], partitions: [{ profile: 'region', handle: 'region4', start: 0, slices: 1 }] },
      },
    ]);
    expect(host.warnings).toEqual([]);
  });

  it('reports each partial-reconfiguration region of a card as a partition of its own', async () => {
    // A second PR region on the N3000's FME, as the DFL driver shows one per port.
    const fme = join(host.copy.root, 'bus/pci/devices/0000:be:00.0/fpga_region/region3/dfl-fme.1');
    await mkdir(join(fme, 'dfl-fme-region.6/fpga_region/region6'), { recursive: true });
    await writeFile(join(fme, 'dfl-fme-region.6/fpga_region/region6/compat_id'), '9346116da8495b7dbe35e9a81cba4e0e\n');

    const n3000 = (await driver.discover()).find((device) => device.pciAddress === '0000:be:00.0') as { partitioning?: unknown } | undefined;

    expect(n3000?.partitioning).toEqual({
      kind: 'FPGA_REGION',
      enabled: true,
      slices: 2,
      profiles: [{ name: 'region', slices: 1, maxCount: 2 }],
      partitions: [
        { profile: 'region', handle: 'region4', start: 0, slices: 1 },
        { profile: 'region', handle: 'region6', start: 1, slices: 1 },
      ],
    });
  });

  it('reports every card healthy, with its AER totals where the kernel has them', async () => {
    expect(await driver.health()).toEqual([
      { pciAddress: '0000:5e:00.0', health: 'ok', reason: null, telemetry: { aerFatal: 0, aerNonFatal: 0 } },
      { pciAddress: '0000:86:00.0', health: 'ok', reason: null, telemetry: {} },
      { pciAddress: '0000:be:00.0', health: 'ok', reason: null, telemetry: {} },
    ]);
  });

  describe('program', () => {
    it('downloads, verifies, runs fpgaconf on the PF and reads the new AFU back', async () => {
      const image = host.images.add('hello-afu', `GBS\nafu_id=${NEW_AFU}\n`);

      const evidence = await driver.program!({ pciAddress: '0000:5e:00.1', image });

      expect(evidence).toEqual({ functionId: NEW_AFU, sha256: image.sha256, previousFunctionId: A10_VF_AFU });
      expect(host.commands).toEqual([
        { command: join(host.copy.bin, 'fpgaconf'), args: ['--bus', '0x5e', '--device', '0x00', '--function', '0x0', expect.stringContaining('image-')] },
      ]);
      expect(await traitsOf('0000:5e:00.0')).toContain(`CUSTOM_FPGA_FUNCTION_ID_INTEL_${NEW_AFU.toUpperCase()}`);
      expect(await traitsOf('0000:5e:00.0')).not.toContain(`CUSTOM_FPGA_FUNCTION_ID_INTEL_${A10_VF_AFU.toUpperCase()}`);
    });

    it('refuses a shell program with a clear code, touching nothing', async () => {
      const image = host.images.add('shell', 'FIM image');
      const failure = await failureOf(driver.program!({ pciAddress: '0000:5e:00.1', target: 'shell', image }));
      expect(failure).toMatchObject({ code: 'DRIVER.TARGET_UNSUPPORTED', deviceState: 'unchanged' });
      expect([host.commands, host.images.requested]).toEqual([[], []]);
      expect((await afuOfVf()).trim()).toBe(A10_VF_AFU);
    });

    it('refuses an image whose SHA-256 is not the job\'s without touching the device', async () => {
      const image = host.images.add('tampered', `GBS\nafu_id=${NEW_AFU}\n`);

      const failure = await failureOf(driver.program!({ pciAddress: '0000:5e:00.1', image: { ...image, sha256: '0'.repeat(64) } }));

      expect(failure).toMatchObject({ code: 'DRIVER.IMAGE_CHECKSUM_MISMATCH', deviceState: 'unchanged', evidence: { expectedSha256: '0'.repeat(64), actualSha256: image.sha256 } });
      expect(host.commands).toEqual([]);
      expect((await afuOfVf()).trim()).toBe(A10_VF_AFU);
    });

    it('fails a download the image service refuses, device untouched', async () => {
      const failure = await failureOf(
        driver.program!({ pciAddress: '0000:5e:00.1', image: { url: 'http://images.test/v2/images/missing/file?sig=secret', sha256: 'a'.repeat(64) } }),
      );

      expect(failure).toMatchObject({ code: 'DRIVER.IMAGE_DOWNLOAD_FAILED', deviceState: 'unchanged' });
      expect(failure.message).toBe('GET http://images.test/v2/images/missing/file answered 404 Not Found');
      expect(host.commands).toEqual([]);
    });

    it('restores the previous function from the cache when fpgaconf fails', async () => {
      await driver.program!({ pciAddress: '0000:5e:00.1', image: host.images.add('first', `afu_id=${NEW_AFU}\n`) });
      const broken = host.images.add('broken', `afu_id=${OTHER_AFU}\nfail\n`);

      const failure = await failureOf(driver.program!({ pciAddress: '0000:5e:00.1', image: broken }));

      expect(failure).toMatchObject({
        code: 'DRIVER.TOOL_FAILED',
        deviceState: `previous function ${NEW_AFU} restored`,
        evidence: { functionId: NEW_AFU, previousFunctionId: NEW_AFU, restored: true, sha256: broken.sha256 },
      });
      expect(failure.message).toBe('fpgaconf exited with 1: Error: partial reconfiguration of 0000:5e:00.0 failed');
      expect(host.commands).toHaveLength(3);
      expect(host.commands[2].args.at(-1)).toBe(join(host.context.workDir, 'bitstreams', `${NEW_AFU}.bin`));
      expect((await afuOfVf()).trim()).toBe(NEW_AFU);
      expect(await readdir(join(host.context.workDir, 'downloads'))).toEqual([]);
    });

    it('says honestly that the region is blank when the previous function was never cached', async () => {
      const failure = await failureOf(driver.program!({ pciAddress: '0000:5e:00.0', image: host.images.add('broken', 'fail\n') }));

      expect(failure).toMatchObject({
        code: 'DRIVER.TOOL_FAILED',
        deviceState: `AFU id reads blank; previous function ${A10_VF_AFU} not restored (no cached image)`,
        evidence: { functionId: null, previousFunctionId: A10_VF_AFU, restored: false },
      });
      expect(await traitsOf('0000:5e:00.0')).not.toContain(`CUSTOM_FPGA_FUNCTION_ID_INTEL_${A10_VF_AFU.toUpperCase()}`);
    });

    it('fails with the previous function still loaded when fpgaconf is missing', async () => {
      const missingTool = intelFpgaDriver(host.context, parseIntelFpgaSettings({ fpgaconfPath: join(host.copy.bin, 'no-such-fpgaconf') }, host.context.workDir));

      const failure = await failureOf(missingTool.program!({ pciAddress: '0000:be:00.0', image: host.images.add('ok', `afu_id=${NEW_AFU}\n`) }));

      expect(failure).toMatchObject({ code: 'DRIVER.TOOL_FAILED', deviceState: 'previous function c000c9660d824272aa1fcd91d4a8a8e9 still loaded' });
      expect(failure.message).toBe('fpgaconf could not be started (ENOENT)');
    });

    it('programs the region the job names, by the region\'s id the card reports, and says which in the evidence', async () => {
      const image = host.images.add('hello-afu', `GBS\nafu_id=${NEW_AFU}\n`);

      expect(await driver.program!({ pciAddress: '0000:5e:00.1', region: 'region1', image })).toEqual({
        functionId: NEW_AFU,
        sha256: image.sha256,
        previousFunctionId: A10_VF_AFU,
        region: 'region1',
      });
      expect(host.commands.map((run) => run.args.slice(0, 6))).toEqual([['--bus', '0x5e', '--device', '0x00', '--function', '0x0']]);
    });

    it('refuses a region fpgaconf cannot reach (it programs slot 0 only) and one the card does not have, touching nothing', async () => {
      // A second PR region on the N3000's FME (slot 1), as the DFL driver shows one per port.
      const fme = join(host.copy.root, 'bus/pci/devices/0000:be:00.0/fpga_region/region3/dfl-fme.1');
      await mkdir(join(fme, 'dfl-fme-region.6/fpga_region/region6'), { recursive: true });
      await writeFile(join(fme, 'dfl-fme-region.6/fpga_region/region6/compat_id'), '9346116da8495b7dbe35e9a81cba4e0e\n');
      const image = host.images.add('hello-afu', `GBS\nafu_id=${NEW_AFU}\n`);

      expect(await failureOf(driver.program!({ pciAddress: '0000:be:00.0', region: 'region6', image }))).toMatchObject({
        code: 'DRIVER.TARGET_UNSUPPORTED',
        deviceState: 'unchanged',
        message: 'fpgaconf programs only the first PR region (slot 0) of 0000:be:00.0; region region6 is slot 1',
      });
      expect(await failureOf(driver.program!({ pciAddress: '0000:be:00.0', region: 'region9', image }))).toMatchObject({
        code: 'DRIVER.INVALID_PARAMS',
        message: 'region "region9" is not one of this card\'s regions (region4, region6)',
      });
      expect([host.commands, host.images.requested]).toEqual([[], []]);
    });

    it('refuses bad params and addresses that are not its devices before doing anything', async () => {
      const image = host.images.add('ok', `afu_id=${NEW_AFU}\n`);
      expect(await failureOf(driver.program!({ pciAddress: 'nonsense', image }))).toMatchObject({ code: 'DRIVER.INVALID_PARAMS', deviceState: 'unchanged' });
      expect(await failureOf(driver.program!({ pciAddress: '0000:5e:00.1', image: { url: 'ftp://x/y', sha256: image.sha256 } }))).toMatchObject({
        code: 'DRIVER.INVALID_PARAMS',
      });
      expect(await failureOf(driver.program!({ pciAddress: '0000:3b:00.0', image }))).toMatchObject({ code: 'DRIVER.DEVICE_NOT_FOUND', deviceState: 'unchanged' });
      expect(host.images.requested).toEqual([]);
    });
  });

  describe('clean', () => {
    const handle = (type: string, address: string) => ({ uuid: '5f0d2a4e-1c3b-4d5e-8f6a-7b8c9d0e1f2a', type, address });
    const withDefaultImage = async (contents: string) => {
      const defaultImage = join(host.context.workDir, 'images', 'default.gbs');
      await mkdir(join(host.context.workDir, 'images'), { recursive: true });
      await writeFile(defaultImage, contents);
      return { defaultImage, driver: intelFpgaDriver(host.context, parseIntelFpgaSettings({ fpgaconfPath: join(host.copy.bin, 'fpgaconf'), defaultImage }, host.context.workDir)) };
    };

    it('loads the default image into a region held whole, reads the AFU back as evidence, then resets the function', async () => {
      const { defaultImage, driver: cleaning } = await withDefaultImage(`GBS\nafu_id=${OTHER_AFU}\n`);

      const evidence = await cleaning.clean!({ pciAddress: '0000:be:00.0', handles: [handle('PCI', '0000:be:00.0')] });

      expect(evidence).toEqual({
        ran: [
          { step: 'default image into the region of 0000:be:00.0 (fpgaconf)', result: `ok: ${defaultImage} loaded, AFU id ${OTHER_AFU}` },
          { step: 'function-level reset of 0000:be:00.0', result: 'ok' },
        ],
      });
      expect(host.commands).toEqual([{ command: join(host.copy.bin, 'fpgaconf'), args: ['--bus', '0xbe', '--device', '0x00', '--function', '0x0', defaultImage] }]);
      expect(await traitsOf('0000:be:00.0')).toContain(`CUSTOM_FPGA_FUNCTION_ID_INTEL_${OTHER_AFU.toUpperCase()}`);
    });

    it('leaves a VF\'s shared region alone: other tenants\' VFs keep their function, the VF is reset', async () => {
      const { driver: cleaning } = await withDefaultImage(`afu_id=${OTHER_AFU}\n`);

      const evidence = await cleaning.clean!({ pciAddress: '0000:5e:00.0', handles: [handle('VF', '0000:5e:00.1')] });

      expect(evidence).toEqual({ ran: [{ step: 'function-level reset of 0000:5e:00.1', result: 'ok' }] });
      expect(host.commands).toEqual([]);
      expect((await afuOfVf()).trim()).toBe(A10_VF_AFU);
    });

    it('fails the clean, saying which steps ran, when the default image does not load', async () => {
      const { driver: cleaning } = await withDefaultImage('fail\n');

      const failure = await failureOf(cleaning.clean!({ pciAddress: '0000:be:00.0', handles: [handle('PCI', '0000:be:00.0')] }));

      expect(failure).toMatchObject({ code: 'DRIVER.TOOL_FAILED', evidence: { ran: [{ step: 'default image into the region of 0000:be:00.0 (fpgaconf)', result: expect.stringMatching(/^failed: fpgaconf exited with 1/) }] } });
    });

    it('says in the evidence that no default image is configured, and still resets the function', async () => {
      const evidence = await driver.clean!({ pciAddress: '0000:be:00.0', handles: [handle('PCI', '0000:be:00.0')] });

      expect(evidence).toEqual({
        ran: [
          { step: 'default image into the region of 0000:be:00.0 (fpgaconf)', result: 'skipped: no defaultImage configured, the region keeps its last function' },
          { step: 'function-level reset of 0000:be:00.0', result: 'ok' },
        ],
      });
      expect(host.commands).toEqual([]);
    });
  });

  describe('attach and detach', () => {
    const INSTANCE = '7d3c1f8e-9b2a-4c5d-8e6f-1a2b3c4d5e6f';

    it('passes through a free VF when the job names the PF whose VFs are its handles, and takes it back the same way', async () => {
      expect(await driver.attach!({ pciAddress: '0000:5e:00.0', instanceUuid: INSTANCE })).toMatchObject({ pciAddress: '0000:5e:00.1', driver: 'vfio-pci', changed: true });
      expect(await failureOf(driver.attach!({ pciAddress: '0000:5e:00.0', instanceUuid: INSTANCE }))).toMatchObject({
        code: 'DRIVER.DEVICE_BUSY',
        message: 'every handle of 0000:5e:00.0 is passed through already (0000:5e:00.1); detach one first',
        deviceState: 'unchanged',
      });
      expect(await driver.detach!({ pciAddress: '0000:5e:00.0', instanceUuid: INSTANCE })).toMatchObject({ pciAddress: '0000:5e:00.1', changed: true });
      expect((await driver.detach!({ pciAddress: '0000:5e:00.0', instanceUuid: INSTANCE })).changed).toBe(false);
    });
  });

  describe('configureVfs', () => {
    it('enables VFs on a PF and reports the FPGA per VF afterwards', async () => {
      expect(await driver.configureVfs!({ pciAddress: '0000:be:00.0', numVfs: 1 })).toEqual({ numVfs: 1, previousNumVfs: 0, changed: true });

      const n3000 = (await driver.discover()).find((device) => device.pciAddress === '0000:be:00.0');
      expect(n3000?.deployables[0]).toMatchObject({ count: 1, attachHandles: [{ kind: 'VF', address: '0000:be:00.1' }] });
    });

    it('takes only the PF', async () => {
      expect(await failureOf(driver.configureVfs!({ pciAddress: '0000:5e:00.1', numVfs: 0 }))).toMatchObject({ code: 'DRIVER.INVALID_PARAMS' });
    });
  });
});
