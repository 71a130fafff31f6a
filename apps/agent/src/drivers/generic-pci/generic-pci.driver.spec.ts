import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AcceleratorDriver } from '../accelerator-driver';
import { failureOf, fixtureDriverContext, type FixtureDriverContext } from '../testing/driver-test-context';
import { genericPciDriver, parseGenericPciSettings } from './generic-pci.driver';

describe('generic-pci driver (generic-pci fixture)', () => {
  let host: FixtureDriverContext;
  const driverFor = (allow: unknown[]): AcceleratorDriver => genericPciDriver(host.context, parseGenericPciSettings({ allow }));

  beforeEach(async () => {
    host = await fixtureDriverContext('generic-pci');
  });
  afterEach(() => host.cleanup());

  it('reports exactly the allow-listed functions as CUSTOM_PCI with vendor and product traits', async () => {
    const driver = driverFor(['1002:740F', { match: '1da3:*,12', type: 'NPU' }]);

    expect(await driver.discover()).toEqual([
      {
        type: 'NPU',
        vendorId: '1da3',
        productId: '1020',
        subsystemVendorId: '1da3',
        subsystemProductId: '0001',
        model: 'PCI device 1da3:1020',
        pciAddress: '0000:4d:00.0',
        boardInfo: { class: '120000' },
        driver: 'habanalabs',
        numaNode: 0,
        deployables: [
          {
            resourceClass: 'CUSTOM_PCI',
            count: 1,
            traits: ['OWNER_CYBORG', 'CUSTOM_PCI_HABANA', 'CUSTOM_PCI_PRODUCT_ID_1020'],
            driverName: 'generic-pci',
            attachHandles: [{ kind: 'PCI', address: '0000:4d:00.0' }],
          },
        ],
      },
      {
        type: 'GPU',
        vendorId: '1002',
        productId: '740f',
        subsystemVendorId: '1002',
        subsystemProductId: '0c34',
        model: 'PCI device 1002:740f',
        pciAddress: '0000:c1:00.0',
        boardInfo: { class: '038000' },
        driver: 'amdgpu',
        numaNode: 1,
        deployables: [
          {
            resourceClass: 'CUSTOM_PCI',
            count: 1,
            traits: ['OWNER_CYBORG', 'CUSTOM_PCI_AMD', 'CUSTOM_PCI_PRODUCT_ID_740F'],
            driverName: 'generic-pci',
            attachHandles: [{ kind: 'PCI', address: '0000:c1:00.0' }],
          },
        ],
      },
    ]);
  });

  it('matches the class prefix when given, and reports nothing without an allow-list', async () => {
    expect((await driverFor(['144d:a80a,0108']).discover()).map((device) => [device.pciAddress, device.type])).toEqual([['0000:01:00.0', 'GPU']]);
    expect(await driverFor(['144d:a80a,03']).discover()).toEqual([]);
    expect(await driverFor([]).discover()).toEqual([]);
  });

  it('degrades a listed device with fatal AER errors', async () => {
    expect(await driverFor(['1da3:*', '1002:*']).health()).toEqual([
      { pciAddress: '0000:4d:00.0', health: 'degraded', reason: 'PCIe AER: 2 fatal error(s) since boot', cause: { kind: 'aer', detail: 'fatal', count: 2 }, telemetry: { aerFatal: 2, aerNonFatal: 5 } },
      { pciAddress: '0000:c1:00.0', health: 'ok', reason: null, telemetry: { aerFatal: 0, aerNonFatal: 0 } },
    ]);
  });

  it('binds a listed device to vfio-pci and back', async () => {
    const driver = driverFor(['1002:740f']);
    const params = { pciAddress: '0000:c1:00.0', instanceUuid: '7d3c1f8e-9b2a-4c5d-8e6f-1a2b3c4d5e6f' };
    expect(await driver.attach!(params)).toEqual({ pciAddress: params.pciAddress, driver: 'vfio-pci', previousDriver: 'amdgpu', changed: true });
    expect(await driver.detach!(params)).toEqual({ pciAddress: params.pciAddress, driver: 'amdgpu', changed: true });
  });

  it('probes a listed function through its PCI configuration space, and finds one that reads all ones unreachable', async () => {
    const driver = driverFor(['1002:740f']);
    const config = join(host.copy.root, 'bus', 'pci', 'devices', '0000:c1:00.0', 'config');
    const unreachable = { code: 'DRIVER.UNREACHABLE', deviceState: 'unchanged' };
    expect(await failureOf(driver.probe!({ pciAddress: '0000:c1:00.0' }))).toMatchObject({ ...unreachable, message: expect.stringContaining('cannot be read') });
    await writeFile(config, Buffer.from([0x02, 0x10, 0x0f, 0x74, 0x07, 0x04]));
    const instanceUuid = '7d3c1f8e-9b2a-4c5d-8e6f-1a2b3c4d5e6f';
    expect(await driver.probe!({ pciAddress: '0000:c1:00.0', instanceUuid })).toEqual({
      pciAddress: '0000:c1:00.0', vendorId: '1002', productId: '740f', driver: 'amdgpu', instanceUuid,
    });
    await writeFile(config, Buffer.alloc(64, 0xff));
    expect(await failureOf(driver.probe!({ pciAddress: '0000:c1:00.0' }))).toMatchObject({ ...unreachable, message: expect.stringContaining('all ones') });
    expect(await failureOf(driver.probe!({ pciAddress: '0000:01:00.0' }))).toMatchObject({ code: 'DRIVER.DEVICE_NOT_FOUND' });
  });

  it('stops start-up on a malformed entry, naming it', () => {
    expect(() => parseGenericPciSettings({ allow: ['10de'] })).toThrow('AGENT_DRIVER_CONFIG: generic-pci.allow[0] must be "vendor:product[,class]" in hex, product may be * (got "10de")');
    expect(() => parseGenericPciSettings({ allow: [{ match: '10de:*', type: 'TPU' }] })).toThrow('AGENT_DRIVER_CONFIG: generic-pci.allow[0].type must be one of GPU, FPGA, DPU, NIC, QAT, NPU');
    expect(() => parseGenericPciSettings({ allow: '10de:*' })).toThrow('AGENT_DRIVER_CONFIG: generic-pci.allow must be a list');
  });
});
