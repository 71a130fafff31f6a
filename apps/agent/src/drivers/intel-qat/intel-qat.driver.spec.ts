import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AcceleratorDriver } from '../accelerator-driver';
import { failureOf, fixtureDriverContext, type FixtureDriverContext } from '../testing/driver-test-context';
import { intelQatDriver } from './intel-qat.driver';

describe('intel-qat driver (intel-qat fixture)', () => {
  let host: FixtureDriverContext;
  let driver: AcceleratorDriver;

  beforeEach(async () => {
    host = await fixtureDriverContext('intel-qat');
    driver = intelQatDriver(host.context);
  });
  afterEach(() => host.cleanup());

  const c62x = (count: number, attachHandles: unknown[]) => ({
    type: 'QAT',
    vendorId: '8086',
    productId: '37c8',
    subsystemVendorId: '8086',
    subsystemProductId: '0000',
    model: 'Intel QuickAssist C62x',
    pciAddress: '0000:3d:00.0',
    boardInfo: { class: '0b4000' },
    driver: 'c6xx',
    numaNode: 0,
    deployables: [{ resourceClass: 'CUSTOM_QAT', count, traits: ['OWNER_CYBORG', 'CUSTOM_QAT_C62X'], driverName: 'intel-qat', attachHandles }],
  });

  it('reports CUSTOM_QAT per VF, or the PF without VFs, with the configured services as traits', async () => {
    expect(await driver.discover()).toEqual([
      c62x(2, [
        { kind: 'VF', address: '0000:3d:01.0' },
        { kind: 'VF', address: '0000:3d:01.1' },
      ]),
      {
        type: 'QAT',
        vendorId: '8086',
        productId: '4940',
        subsystemVendorId: '8086',
        subsystemProductId: '0000',
        model: 'Intel QuickAssist 4xxx',
        pciAddress: '0000:6b:00.0',
        boardInfo: { class: '0b4000' },
        driver: '4xxx',
        numaNode: 0,
        deployables: [
          {
            resourceClass: 'CUSTOM_QAT',
            count: 1,
            traits: ['OWNER_CYBORG', 'CUSTOM_QAT_4XXX', 'CUSTOM_QAT_SYM', 'CUSTOM_QAT_ASYM'],
            driverName: 'intel-qat',
            attachHandles: [{ kind: 'PCI', address: '0000:6b:00.0' }],
          },
        ],
      },
    ]);
  });

  it('degrades a device with fatal AER errors and fails one whose qat/state is down', async () => {
    expect(await driver.health()).toEqual([
      { pciAddress: '0000:3d:00.0', health: 'degraded', reason: 'PCIe AER: 1 fatal error(s) since boot', cause: { kind: 'aer', detail: 'fatal', count: 1 }, telemetry: { aerFatal: 1, aerNonFatal: 0 } },
      { pciAddress: '0000:6b:00.0', health: 'ok', reason: null, telemetry: { aerFatal: 0, aerNonFatal: 0 } },
    ]);
    await writeFile(join(host.copy.root, 'bus/pci/devices/0000:6b:00.0/qat/state'), 'down\n');
    expect((await driver.health())[1]).toMatchObject({ health: 'failed', reason: 'QAT device is down (qat/state)' });
  });

  it('sets the VF count (0 first, as the kernel wants) and reports the new VFs', async () => {
    expect(await driver.configureVfs!({ pciAddress: '0000:3d:00.0', numVfs: 4 })).toEqual({ numVfs: 4, previousNumVfs: 2, changed: true });

    const handles = (await driver.discover())[0].deployables[0].attachHandles.map((handle) => handle.address);
    expect(handles).toEqual(['0000:3d:01.0', '0000:3d:01.1', '0000:3d:01.2', '0000:3d:01.3']);

    expect(await driver.configureVfs!({ pciAddress: '0000:3d:00.0', numVfs: 0 })).toEqual({ numVfs: 0, previousNumVfs: 4, changed: true });
    expect(await driver.discover()).toContainEqual(c62x(1, [{ kind: 'PCI', address: '0000:3d:00.0' }]));
  });

  it('leaves VFs alone when the count is already right, or when one is passed through', async () => {
    expect(await driver.configureVfs!({ pciAddress: '0000:3d:00.0', numVfs: 2 })).toEqual({ numVfs: 2, previousNumVfs: 2, changed: false });
    await driver.attach!({ pciAddress: '0000:3d:01.1', instanceUuid: '7d3c1f8e-9b2a-4c5d-8e6f-1a2b3c4d5e6f' });

    const failure = await failureOf(driver.configureVfs!({ pciAddress: '0000:3d:00.0', numVfs: 4 }));

    expect(failure).toMatchObject({ code: 'DRIVER.DEVICE_BUSY', deviceState: 'unchanged' });
    expect(failure.message).toContain('0000:3d:01.1');
  });

  it('refuses a count past sriov_totalvfs, or a VF as the target', async () => {
    expect(await failureOf(driver.configureVfs!({ pciAddress: '0000:3d:00.0', numVfs: 17 }))).toMatchObject({
      code: 'DRIVER.INVALID_PARAMS',
      message: "numVfs 17 exceeds 0000:3d:00.0's sriov_totalvfs 16",
    });
    expect(await failureOf(driver.configureVfs!({ pciAddress: '0000:3d:01.0', numVfs: 1 }))).toMatchObject({ code: 'DRIVER.INVALID_PARAMS' });
    expect(await failureOf(driver.configureVfs!({ pciAddress: '0000:3d:00.0', numVfs: -1 }))).toMatchObject({ code: 'DRIVER.INVALID_PARAMS' });
  });
});
