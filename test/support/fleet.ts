/**
 * Synthetic host reports for crash tests and benchmarks: a realistic mix per
 * host (an FPGA with SR-IOV VFs, GPUs, a NIC with VFs), varied by
 * `generation` so consecutive reports of one host differ a little, as a
 * fleet with churn does.
 */
const hex2 = (n: number) => n.toString(16).padStart(2, '0');

export function hostname(index: number): string {
  return `compute-${String(index).padStart(5, '0')}`;
}

export function hostReportBody(index: number, generation = 0): { devices: unknown[] } {
  const vfs = 2 + (generation % 3);
  const gpus = 2 + ((index + generation) % 2);
  const devices: unknown[] = [
    {
      type: 'FPGA',
      vendorId: '8086',
      productId: '09c4',
      model: 'Intel PAC Arria 10 GX',
      pciAddress: '0000:5e:00.0',
      boardInfo: { interface_id: 'f3c99413-5081-4aad-bced-07eb84a6d0bb', host: String(index) },
      driver: 'intel-fpga-pci',
      numaNode: 1,
      deployables: [
        {
          resourceClass: 'FPGA',
          count: vfs,
          traits: ['CUSTOM_FPGA_INTEL', 'CUSTOM_FPGA_INTEL_PAC_ARRIA10'],
          attachHandles: Array.from({ length: vfs }, (_, vf) => ({ kind: 'VF', address: `0000:5e:00.${vf + 1}` })),
        },
      ],
    },
    {
      type: 'NIC',
      vendorId: '8086',
      productId: '1572',
      model: 'Ethernet Controller X710',
      pciAddress: '0000:af:00.0',
      boardInfo: { firmware: '8.70' },
      driver: 'i40e',
      numaNode: 1,
      deployables: [
        {
          resourceClass: 'CUSTOM_NIC',
          count: 4,
          traits: ['CUSTOM_NIC_X710', 'CUSTOM_PHYSNET1'],
          attachHandles: Array.from({ length: 4 }, (_, vf) => ({ kind: 'VF', address: `0000:af:02.${vf}`, physicalNetwork: 'physnet1' })),
        },
      ],
    },
  ];
  for (let g = 0; g < gpus; g++) {
    const address = `0000:${hex2(0x3b + g)}:00.0`;
    devices.push({
      type: 'GPU',
      vendorId: '10de',
      productId: '20b5',
      model: 'NVIDIA A100 80GB PCIe',
      pciAddress: address,
      boardInfo: { serial: `1652421${String(index).padStart(5, '0')}${g}` },
      driver: 'vfio-pci',
      numaNode: 0,
      capacity: { memoryGiB: 80 },
      deployables: [{ resourceClass: 'PGPU', count: 1, traits: ['CUSTOM_NVIDIA_20B5'], attachHandles: [{ kind: 'PCI', address }] }],
    });
  }
  return { devices };
}

/** A host of `count` single-GPU devices (eight, as fencing's target has): one provider and one attach handle each. */
export function gpuHostReport(count = 8): { devices: unknown[] } {
  return {
    devices: Array.from({ length: count }, (_, g) => {
      const address = `0000:${hex2(0x3b + g)}:00.0`;
      return {
        type: 'GPU',
        vendorId: '10de',
        productId: '20b5',
        model: 'NVIDIA A100 80GB PCIe',
        pciAddress: address,
        boardInfo: { serial: `fence-${g}` },
        driver: 'vfio-pci',
        numaNode: 0,
        deployables: [{ resourceClass: 'PGPU', count: 1, traits: ['CUSTOM_NVIDIA_20B5'], attachHandles: [{ kind: 'PCI', address }] }],
      };
    }),
  };
}
