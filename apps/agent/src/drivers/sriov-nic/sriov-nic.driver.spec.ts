import type { AcceleratorDriver } from '../accelerator-driver';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { failureOf, fixtureDriverContext, type FixtureDriverContext } from '../testing/driver-test-context';
import { sriovNicDriver } from './sriov-nic.driver';
import { parseSriovNicSettings } from './sriov-nic.settings';

describe('sriov-nic driver (sriov-nic fixture)', () => {
  let host: FixtureDriverContext;
  let driver: AcceleratorDriver;
  const physicalNetworks = { ens1f0: 'physnet1', '0000:AF:00.1': 'physnet-2', ens5f0np0: 'physnet3' };

  beforeEach(async () => {
    host = await fixtureDriverContext('sriov-nic');
    driver = sriovNicDriver(host.context, parseSriovNicSettings({ physicalNetworks }));
  });
  afterEach(() => host.cleanup());

  const nic = (fields: Record<string, unknown>) => ({ type: 'NIC', subsystemVendorId: '8086', subsystemProductId: '0007', driver: 'i40e', numaNode: 1, ...fields });

  it('reports mapped PFs: CUSTOM_NIC per VF (the PF without VFs), each handle on the PF\'s physical network', async () => {
    expect(await driver.discover()).toEqual([
      {
        type: 'NIC',
        vendorId: '15b3',
        productId: '101d',
        subsystemVendorId: '15b3',
        subsystemProductId: '0016',
        model: 'Mellanox ConnectX-6 Dx',
        pciAddress: '0000:86:00.0',
        boardInfo: { class: '020000', interface: 'ens5f0np0' },
        driver: 'mlx5_core',
        numaNode: 1,
        deployables: [
          {
            resourceClass: 'CUSTOM_NIC',
            count: 1,
            traits: ['OWNER_CYBORG', 'CUSTOM_NIC_CONNECTX6DX', 'CUSTOM_VF', 'CUSTOM_PHYSNET3'],
            driverName: 'sriov-nic',
            attachHandles: [{ kind: 'VF', address: '0000:86:00.2', physicalNetwork: 'physnet3' }],
          },
        ],
      },
      nic({
        vendorId: '8086',
        productId: '1572',
        model: 'Intel Ethernet Controller X710',
        pciAddress: '0000:af:00.0',
        boardInfo: { class: '020000', interface: 'ens1f0' },
        deployables: [
          {
            resourceClass: 'CUSTOM_NIC',
            count: 2,
            traits: ['OWNER_CYBORG', 'CUSTOM_NIC_X710', 'CUSTOM_VF', 'CUSTOM_PHYSNET1'],
            driverName: 'sriov-nic',
            attachHandles: [
              { kind: 'VF', address: '0000:af:02.0', physicalNetwork: 'physnet1' },
              { kind: 'VF', address: '0000:af:02.1', physicalNetwork: 'physnet1' },
            ],
          },
        ],
      }),
      nic({
        vendorId: '8086',
        productId: '1572',
        model: 'Intel Ethernet Controller X710',
        pciAddress: '0000:af:00.1',
        boardInfo: { class: '020000', interface: 'ens1f1' },
        deployables: [
          {
            resourceClass: 'CUSTOM_NIC',
            count: 1,
            traits: ['OWNER_CYBORG', 'CUSTOM_NIC_X710', 'CUSTOM_PF', 'CUSTOM_PHYSNET_2'],
            driverName: 'sriov-nic',
            attachHandles: [{ kind: 'PCI', address: '0000:af:00.1', physicalNetwork: 'physnet-2' }],
          },
        ],
      }),
    ]);
  });

  it('leaves out the unmapped uplink, warning once; reports it without a network when told to', async () => {
    await driver.discover();
    await driver.discover();
    expect(host.warnings).toEqual(['sriov-nic: 0000:18:00.0 (eno1) has no physical network in physicalNetworks; not reported']);

    const everything = sriovNicDriver(host.context, parseSriovNicSettings({ physicalNetworks, reportUnmapped: true }));
    const uplink = (await everything.discover()).find((device) => device.pciAddress === '0000:18:00.0');
    expect(uplink?.deployables[0]).toMatchObject({ traits: ['OWNER_CYBORG', 'CUSTOM_NIC_E810', 'CUSTOM_PF'], attachHandles: [{ kind: 'PCI', address: '0000:18:00.0' }] });
  });

  it('creates VFs from sriov_offset and sriov_stride and reports them on the network', async () => {
    expect(await driver.configureVfs!({ pciAddress: '0000:af:00.1', numVfs: 2 })).toEqual({ numVfs: 2, previousNumVfs: 0, changed: true });

    const port2 = (await driver.discover()).find((device) => device.pciAddress === '0000:af:00.1');
    expect(port2?.deployables[0]).toMatchObject({
      count: 2,
      traits: ['OWNER_CYBORG', 'CUSTOM_NIC_X710', 'CUSTOM_VF', 'CUSTOM_PHYSNET_2'],
      attachHandles: [
        { kind: 'VF', address: '0000:af:0a.0', physicalNetwork: 'physnet-2' },
        { kind: 'VF', address: '0000:af:0a.1', physicalNetwork: 'physnet-2' },
      ],
    });
  });

  it('passes a VF through and back', async () => {
    const params = { pciAddress: '0000:af:02.1', instanceUuid: '7d3c1f8e-9b2a-4c5d-8e6f-1a2b3c4d5e6f' };
    expect(await driver.attach!(params)).toEqual({ pciAddress: params.pciAddress, driver: 'vfio-pci', previousDriver: 'iavf', changed: true });
    expect(await driver.attach!(params)).toEqual({ pciAddress: params.pciAddress, driver: 'vfio-pci', previousDriver: 'vfio-pci', changed: false });
    expect(await driver.detach!(params)).toEqual({ pciAddress: params.pciAddress, driver: 'iavf', changed: true });
    expect(await driver.detach!(params)).toEqual({ pciAddress: params.pciAddress, driver: 'iavf', changed: false });
  });

  it('cleans a released VF with a function-level reset of that VF alone, and refuses a function the device does not have', async () => {
    const handle = { uuid: '7d3c1f8e-9b2a-4c5d-8e6f-1a2b3c4d5e6f', type: 'VF', address: '0000:af:02.1' };
    expect(await driver.clean!({ pciAddress: '0000:af:00.0', handles: [handle] })).toEqual({ ran: [{ step: 'function-level reset of 0000:af:02.1', result: 'ok' }] });
    expect(await readFile(join(host.copy.root, 'bus', 'pci', 'devices', '0000:af:02.1', 'reset'), 'utf8')).toBe('1');
    const missing = await failureOf(driver.clean!({ pciAddress: '0000:af:00.0', handles: [{ ...handle, address: '0000:af:0f.7' }] }));
    expect(missing).toMatchObject({ code: 'DRIVER.DEVICE_NOT_FOUND', evidence: { ran: [] } });
  });

  it('refuses a physical network name that is not one', () => {
    expect(() => parseSriovNicSettings({ physicalNetworks: { ens1f0: 'phys net' } })).toThrow(
      'AGENT_DRIVER_CONFIG: sriov-nic.physicalNetworks.ens1f0 "phys net" is not a physical network name',
    );
    expect(() => parseSriovNicSettings({ physicalNetwork: {} })).toThrow('AGENT_DRIVER_CONFIG: sriov-nic.physicalNetwork is not a setting of sriov-nic');
  });
});
