import type { HostReport, ReportedDevice, ReportedPartition, ReportedPartitionProfile } from '../host-report';

/** Realistic reports for tests: an A100 (PGPU), an Arria10 PAC with VFs, an X710 NIC with VFs, a T4 split into vGPUs. */
export const a100 = (pciAddress = '0000:3b:00.0'): ReportedDevice => ({
  type: 'GPU',
  vendorId: '10de',
  productId: '20b5',
  subsystemVendorId: '10de',
  subsystemProductId: '1533',
  model: 'NVIDIA A100 80GB PCIe',
  pciAddress,
  boardInfo: { serial: '1652421000123', vbios: '92.00.36.00.02' },
  driver: 'vfio-pci',
  numaNode: 0,
  capacity: { memoryGiB: 80 },
  deployables: [
    {
      resourceClass: 'PGPU',
      count: 1,
      traits: ['OWNER_CYBORG', 'CUSTOM_NVIDIA_20B5'],
      driverName: 'nvidia_gpu_driver',
      attachHandles: [{ kind: 'PCI', address: pciAddress }],
    },
  ],
});

/** An FPGA with up to 7 VFs (functions .1–.7 of its own PCI device). */
export const arria10 = (pciAddress = '0000:5e:00.0', vfs = 2): ReportedDevice => ({
  type: 'FPGA',
  vendorId: '8086',
  productId: '09c4',
  model: 'Intel PAC Arria 10 GX',
  pciAddress,
  boardInfo: { bitstream_id: '0x123000200000185', interface_id: 'f3c99413-5081-4aad-bced-07eb84a6d0bb' },
  vendorBoardInfo: 'fpga-region0',
  driver: 'intel-fpga-pci',
  numaNode: 1,
  deployables: [
    {
      name: `${pciAddress}-region0`,
      resourceClass: 'FPGA',
      count: vfs,
      traits: ['CUSTOM_FPGA_INTEL', 'CUSTOM_FPGA_INTEL_PAC_ARRIA10', 'OWNER_CYBORG'],
      driverName: 'intel_fpga_driver',
      attachHandles: Array.from({ length: vfs }, (_, index) => ({
        kind: 'VF' as const,
        address: pciAddress.replace(/0$/, `${index + 1}`),
      })),
    },
  ],
});

export const x710 = (pciAddress = '0000:af:00.0', physicalNetwork = 'physnet1'): ReportedDevice => ({
  type: 'NIC',
  vendorId: '8086',
  productId: '1572',
  model: 'Intel Ethernet Controller X710 for 10GbE SFP+',
  pciAddress,
  boardInfo: {},
  driver: 'i40e',
  numaNode: 1,
  deployables: [
    {
      resourceClass: 'CUSTOM_NIC',
      count: 2,
      traits: ['CUSTOM_VF', `CUSTOM_${physicalNetwork.toUpperCase()}`],
      attachHandles: [
        { kind: 'VF', address: pciAddress.replace(/00\.0$/, '02.0'), physicalNetwork },
        { kind: 'VF', address: pciAddress.replace(/00\.0$/, '02.1'), physicalNetwork },
      ],
    },
  ],
});

export const t4vgpu = (pciAddress = '0000:d8:00.0', slots = 4): ReportedDevice => ({
  type: 'GPU',
  vendorId: '10de',
  productId: '1eb8',
  model: 'NVIDIA Tesla T4',
  pciAddress,
  boardInfo: {},
  driver: 'nvidia',
  numaNode: null,
  deployables: [
    {
      name: `vgpu_${pciAddress}`,
      resourceClass: 'VGPU',
      count: slots,
      traits: ['CUSTOM_NVIDIA_1EB8_T4_2B'],
      attachHandles: Array.from({ length: slots }, (_, slot) => ({
        kind: 'MDEV' as const,
        address: pciAddress,
        mdevType: 'nvidia-222',
        slot,
      })),
    },
  ],
});

export const hostReport = (hostname: string, devices: readonly ReportedDevice[]): HostReport => ({ hostname, devices });

/** The GPU instance profiles of an A100 80GB (`nvidia-smi mig -lgip`, `-lgipp`): 8 memory slices, 7 compute. */
export const A100_MIG_PROFILES: readonly ReportedPartitionProfile[] = [
  { name: '1g.10gb', profileId: 19, slices: 1, memoryMiB: 9856, computeSlices: 1, maxCount: 7, placements: [0, 1, 2, 3, 4, 5, 6] },
  { name: '2g.20gb', profileId: 14, slices: 2, memoryMiB: 19968, computeSlices: 2, maxCount: 3, placements: [0, 2, 4] },
  { name: '3g.40gb', profileId: 9, slices: 4, memoryMiB: 40192, computeSlices: 3, maxCount: 2, placements: [0, 4] },
  { name: '4g.40gb', profileId: 5, slices: 4, memoryMiB: 40192, computeSlices: 4, maxCount: 1, placements: [0] },
  { name: '7g.80gb', profileId: 0, slices: 8, memoryMiB: 80384, computeSlices: 7, maxCount: 1, placements: [0] },
];

/** An A100 in MIG mode with `partitions` carved (none by default); it reports no whole-GPU deployable. */
export const a100Mig = (partitions: readonly ReportedPartition[] = [], pciAddress = '0000:3b:00.0'): ReportedDevice => ({
  ...a100(pciAddress),
  deployables: [],
  partitioning: { kind: 'MIG', enabled: true, slices: 8, profiles: A100_MIG_PROFILES, partitions },
});

/** A MIG device of `profile` at slice `start` (MIG UUIDs are opaque to the ledger). */
export const migDevice = (profile: string, start: number, slices: number, handle = `MIG-${profile}-${start}`): ReportedPartition => ({
  profile,
  handle,
  start,
  slices,
});
