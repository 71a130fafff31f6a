export interface NvidiaGpuModel {
  readonly model: string;
  readonly memoryGiB: number;
  /** MIG-capable GPUs: the memory slices MIG divides the GPU into (NVIDIA's MIG user guide, "Supported GPUs"). */
  readonly migSlices?: number;
}

/** Names and nominal memory of NVIDIA data-centre GPUs by PCI device id: nominal, so capacity does not change when nvidia-smi cannot see a card (passed through). */
export const NVIDIA_GPU_MODELS: Readonly<Record<string, NvidiaGpuModel>> = {
  '1db4': { model: 'Tesla V100-PCIE-16GB', memoryGiB: 16 },
  '1db6': { model: 'Tesla V100-PCIE-32GB', memoryGiB: 32 },
  '1eb8': { model: 'NVIDIA T4', memoryGiB: 16 },
  '20b0': { model: 'NVIDIA A100-SXM4-40GB', memoryGiB: 40, migSlices: 8 },
  '20b2': { model: 'NVIDIA A100-SXM4-80GB', memoryGiB: 80, migSlices: 8 },
  '20b5': { model: 'NVIDIA A100 80GB PCIe', memoryGiB: 80, migSlices: 8 },
  '20b7': { model: 'NVIDIA A30', memoryGiB: 24, migSlices: 4 },
  '20f1': { model: 'NVIDIA A100-PCIE-40GB', memoryGiB: 40, migSlices: 8 },
  '2236': { model: 'NVIDIA A10', memoryGiB: 24 },
  '2237': { model: 'NVIDIA A10G', memoryGiB: 24 },
  '25b6': { model: 'NVIDIA A16', memoryGiB: 16 },
  '26b5': { model: 'NVIDIA L40', memoryGiB: 48 },
  '26b9': { model: 'NVIDIA L40S', memoryGiB: 48 },
  '27b8': { model: 'NVIDIA L4', memoryGiB: 24 },
  '2321': { model: 'NVIDIA H100 NVL', memoryGiB: 94, migSlices: 8 },
  '2330': { model: 'NVIDIA H100 80GB HBM3', memoryGiB: 80, migSlices: 8 },
  '2331': { model: 'NVIDIA H100 PCIe', memoryGiB: 80, migSlices: 8 },
  '2335': { model: 'NVIDIA H200', memoryGiB: 141, migSlices: 8 },
};
