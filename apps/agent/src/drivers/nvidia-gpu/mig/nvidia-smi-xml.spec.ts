import { migFixture } from './mig-fixtures';
import { parseNvidiaSmiXml } from './nvidia-smi-xml';

describe('nvidia-smi -q -x (MIG mode and MIG devices)', () => {
  it('reads an A100-SXM4-80GB in MIG mode with four MIG devices', () => {
    expect([...parseNvidiaSmiXml(migFixture('a100-sxm4-80gb.q.xml')).values()]).toEqual([
      {
        pciAddress: '0000:01:00.0',
        uuid: 'GPU-513536b6-7d19-9063-b049-1e69664bb298',
        productName: 'NVIDIA A100-SXM4-80GB',
        migCurrent: 'Enabled',
        migPending: 'Enabled',
        migDevices: [
          { index: 0, gpuInstanceId: 3, computeInstanceId: 0 },
          { index: 1, gpuInstanceId: 4, computeInstanceId: 0 },
          { index: 2, gpuInstanceId: 5, computeInstanceId: 0 },
          { index: 3, gpuInstanceId: 6, computeInstanceId: 0 },
        ],
      },
    ]);
  });

  it('reads a GPU without MIG (N/A) and a pending change; skips a GPU whose id is no PCI address and a MIG device it cannot read', () => {
    const xml = `<nvidia_smi_log>
      <gpu id="00000000:3B:00.0"><product_name>NVIDIA T4</product_name><mig_mode><current_mig>N/A</current_mig><pending_mig>N/A</pending_mig></mig_mode><mig_devices>None</mig_devices><uuid>GPU-1</uuid></gpu>
      <gpu id="00000000:AF:00.0"><mig_mode><current_mig>Disabled</current_mig><pending_mig>Enabled</pending_mig></mig_mode>
        <mig_devices><mig_device><index>x</index></mig_device></mig_devices><uuid>GPU-2</uuid></gpu>
      <gpu id="somewhere"><uuid>GPU-3</uuid></gpu>
    </nvidia_smi_log>`;

    expect([...parseNvidiaSmiXml(xml).values()]).toEqual([
      { pciAddress: '0000:3b:00.0', uuid: 'GPU-1', productName: 'NVIDIA T4', migCurrent: null, migPending: null, migDevices: [] },
      { pciAddress: '0000:af:00.0', uuid: 'GPU-2', productName: null, migCurrent: 'Disabled', migPending: 'Enabled', migDevices: [] },
    ]);
  });
});
