import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AcceleratorDriver } from '../accelerator-driver';
import { failureOf, fixtureDriverContext, type FixtureDriverContext } from '../testing/driver-test-context';
import { xilinxFpgaDriver } from './xilinx-fpga.driver';
import { parseXilinxFpgaSettings } from './xilinx-fpga.settings';

const SHELL = 'b6f4a7cd2fb45e1b81c6e4e9a3a63e8a';
const NEW_SHELL = '0123456789abcdef0123456789abcdef';

describe('xilinx-fpga driver (xilinx-fpga fixture)', () => {
  let host: FixtureDriverContext;
  let driver: AcceleratorDriver;

  beforeEach(async () => {
    host = await fixtureDriverContext('xilinx-fpga');
    driver = xilinxFpgaDriver(host.context, parseXilinxFpgaSettings({ xbmgmtPath: join(host.copy.bin, 'xbmgmt') }, host.context.workDir));
  });
  afterEach(() => host.cleanup());

  const logicUuid = async () => (await readFile(join(host.copy.root, 'bus/pci/devices/0000:d8:00.0/logic_uuids'), 'utf8')).trim();

  it('merges the management and user PFs of a card into one FPGA with two PCI handles', async () => {
    expect(await driver.discover()).toEqual([
      {
        type: 'FPGA',
        vendorId: '10ee',
        productId: '5004',
        subsystemVendorId: '10ee',
        subsystemProductId: '000e',
        model: 'Xilinx Alveo U250',
        pciAddress: '0000:d8:00.0',
        boardInfo: { class: '120000', interface_id: '862c7020a250293e32036f19956669e5' },
        driver: 'xclmgmt',
        numaNode: 1,
        deployables: [
          {
            resourceClass: 'FPGA',
            count: 1,
            traits: [
              'OWNER_CYBORG',
              'CUSTOM_FPGA_XILINX',
              'CUSTOM_FPGA_PRODUCT_ID_5004',
              'CUSTOM_FPGA_REGION_XILINX_862C7020A250293E32036F19956669E5',
              'CUSTOM_FPGA_FUNCTION_ID_XILINX_B6F4A7CD2FB45E1B81C6E4E9A3A63E8A',
            ],
            driverName: 'xilinx-fpga',
            attachHandles: [
              { kind: 'PCI', address: '0000:d8:00.0' },
              { kind: 'PCI', address: '0000:d8:00.1' },
            ],
          },
        ],
        partitioning: {
          kind: 'FPGA_REGION',
          enabled: true,
          slices: 1,
          profiles: [{ name: 'region', slices: 1, maxCount: 1 }],
          partitions: [{ profile: 'region', handle: '862c7020a250293e32036f19956669e5', start: 0, slices: 1 }],
        },
      },
    ]);
    expect(await driver.health()).toEqual([{ pciAddress: '0000:d8:00.0', health: 'ok', reason: null, telemetry: { aerFatal: 0, aerNonFatal: 0 } }]);
  });

  it('programs through xbmgmt on the management PF, whichever function the job names', async () => {
    const image = host.images.add('shell', `xclbin\nlogic_uuid=${NEW_SHELL}\n`);

    expect(await driver.program!({ pciAddress: '0000:d8:00.1', image })).toEqual({ functionId: NEW_SHELL, sha256: image.sha256, previousFunctionId: SHELL });
    expect(host.commands.map((run) => run.args.slice(0, 5))).toEqual([['program', '--device', '0000:d8:00.0', '--base', '--image']]);
    expect(await logicUuid()).toBe(NEW_SHELL);
  });

  it('checks the region the job names against the card\'s own (XRT programs the card: the image names its interface) and says which in the evidence', async () => {
    const image = host.images.add('shell', `xclbin\nlogic_uuid=${NEW_SHELL}\n`);
    expect(await failureOf(driver.program!({ pciAddress: '0000:d8:00.0', region: 'ffffffffffffffffffffffffffffffff', image }))).toMatchObject({
      code: 'DRIVER.INVALID_PARAMS',
      deviceState: 'unchanged',
    });
    expect(host.commands).toEqual([]);

    expect(await driver.program!({ pciAddress: '0000:d8:00.0', region: '862c7020a250293e32036f19956669e5', image })).toEqual({
      functionId: NEW_SHELL,
      sha256: image.sha256,
      previousFunctionId: SHELL,
      region: '862c7020a250293e32036f19956669e5',
    });
    expect(host.commands.map((run) => run.args.slice(0, 5))).toEqual([['program', '--device', '0000:d8:00.0', '--base', '--image']]);
  });

  it('reports the card unchanged when xbmgmt refuses the image', async () => {
    const failure = await failureOf(driver.program!({ pciAddress: '0000:d8:00.0', image: host.images.add('bad', 'fail\n') }));

    expect(failure).toMatchObject({
      code: 'DRIVER.TOOL_FAILED',
      deviceState: `previous function ${SHELL} still loaded`,
      message: 'xbmgmt exited with 1: ERROR: image verification failed on 0000:d8:00.0; device left as it was',
      evidence: { functionId: SHELL, restored: false },
    });
    expect(host.commands).toHaveLength(1);
  });

  it('refuses an image with the wrong checksum before running xbmgmt', async () => {
    const image = host.images.add('shell', `logic_uuid=${NEW_SHELL}\n`);
    expect(await failureOf(driver.program!({ pciAddress: '0000:d8:00.0', image: { ...image, sha256: 'f'.repeat(64) } }))).toMatchObject({
      code: 'DRIVER.IMAGE_CHECKSUM_MISMATCH',
      deviceState: 'unchanged',
    });
    expect(host.commands).toEqual([]);
    expect(await logicUuid()).toBe(SHELL);
  });
});
