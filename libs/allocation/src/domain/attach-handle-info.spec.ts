import { boundAttachHandle, type InventoryAttachHandle } from './attach-handle-info';

const pci: InventoryAttachHandle = { uuid: 'h1', kind: 'PCI', address: '0000:3B:00.0', physicalNetwork: null, mdevType: null, slot: null, partition: null };
const address = { domain: '0000', bus: '3b', device: '00', function: '0' };

describe('boundAttachHandle: what Nova reads of a bound request', () => {
  it('gives a whole function as Cyborg does: PCI with its address, no partition key', () => {
    expect(boundAttachHandle(pci)).toEqual({ uuid: 'h1', type: 'PCI', info: address });
  });

  it('gives a MIG device as PCI at its parent with the MIG device UUID, and an FPGA region with its region id', () => {
    expect(boundAttachHandle({ ...pci, kind: 'MIG', partition: 'MIG-5c89852c-d268-c3f3-1b07-005d5ae1dc3f' })).toEqual({
      uuid: 'h1',
      type: 'PCI',
      info: { ...address, mig_device_uuid: 'MIG-5c89852c-d268-c3f3-1b07-005d5ae1dc3f' },
    });
    expect(boundAttachHandle({ ...pci, kind: 'REGION', partition: 'region1' }).info).toEqual({ ...address, region_id: 'region1' });
  });

  it('gives an mdev as Cyborg does, with the agent’s mdev uuid beside it', () => {
    const mdev = boundAttachHandle({ ...pci, kind: 'MDEV', mdevType: 'nvidia-35', slot: 1, partition: '8a1b2c3d-0000-4000-8000-000000000001' });
    expect(mdev).toEqual({ uuid: 'h1', type: 'MDEV', info: { ...address, asked_type: 'nvidia-35', vgpu_mark: 'nvidia-35_1', mdev_uuid: '8a1b2c3d-0000-4000-8000-000000000001' } });
  });
});
