import type { ReportedAttachHandle, ReportedDeployable, ReportedPartitioning } from '@ledger/inventory';
import type { PciFunction } from '../../discovery/pci-function';
import type { AcceleratorDriver, DeviceHealthSample, JobEvidence, JobParams } from '../accelerator-driver';
import type { DriverContext } from '../driver-context';
import { normalizePciAddress } from '../../discovery/pci-address';
import { DRIVER_ERROR_CODES, invalidParams, untouched } from '../driver-errors';
import { carveParams, nameParam, partitionHandleParam, pciAddressParam, uuidParam } from '../job-params';
import { sysfsDriverBasics, type ManagedDevice } from '../pci/managed-devices';
import { cleanFailed, type CleanStepDone } from '../pci/reset-functions';
import { indexByAddress, pciDeviceReport, presentVfs } from '../pci/pci-device-report';
import { OWNER_CYBORG, traitPart } from '../pci/trait-names';
import { nvidiaGpuHealth } from './nvidia-gpu-health';
import { NVIDIA_GPU_MODELS } from './nvidia-gpu-models';
import type { NvidiaGpuSettings } from './nvidia-gpu.settings';
import { createMdev, removeMdev } from './nvidia-mdevs';
import { readMigLayouts, type MigLayoutReading } from './mig/mig-layout';
import { migOperations, type MigGpu, type PartitionOperations } from './mig/mig-operations';
import { migPartitioning } from './mig/mig-partitioning';
import { readNvidiaSmi, runNvidiaSmi, type NvidiaSmiReading } from './nvidia-smi';
import { readCriticalXids } from './nvidia-xid';

const NVIDIA = '10de';
const SMI_REUSE_MS = 1000;
/** A GPU reset waits for the GPU to drain and come back: tens of seconds on large boards. */
const GPU_RESET_TIMEOUT_MS = 120_000;

/**
 * NVIDIA GPUs (vendor 10de, VGA or 3D controller): a PGPU per GPU with one
 * PCI handle, or — for GPUs the operator lists under `vgpuTypes` — a VGPU
 * deployable with an MDEV handle per instance of that type. SR-IOV VFs
 * (A100 and later) are never GPUs of their own (Cyborg's LP#1987380); on
 * those GPUs the vGPU instances live on the VFs, so the handles do too.
 * nvidia-smi, when present, adds UUID, MIG mode, health and telemetry, and
 * for MIG-capable GPUs their partitioning: MIG profiles and the GPU
 * instances carved now, which carvePartition and destroyPartition change.
 */
export function nvidiaGpuDriver(context: DriverContext, settings: NvidiaGpuSettings): AcceleratorDriver & PartitionOperations {
  const { sysfs } = context;
  const smiTimeoutMs = settings.nvidiaSmiTimeoutSeconds * 1000;
  let warnedNoSmi = false;
  let lastSmi: { readonly at: number; readonly reading: Promise<NvidiaSmiReading> } | undefined;

  /** One nvidia-smi run serves the discovery and health check of one heartbeat (they come within a second). */
  function smi(): Promise<NvidiaSmiReading> {
    const now = Date.now();
    if (lastSmi && now - lastSmi.at < SMI_REUSE_MS) return lastSmi.reading;
    const reading = readNvidiaSmi(context.runCommand, settings.nvidiaSmiPath, smiTimeoutMs).then((result) => {
      if (result.status === 'absent' && !warnedNoSmi) {
        warnedNoSmi = true;
        context.logger.warn(`nvidia-gpu: no ${settings.nvidiaSmiPath}; GPU health and telemetry come from sysfs only`);
      }
      return result;
    });
    lastSmi = { at: now, reading };
    return reading;
  }

  let lastMig: { readonly at: number; readonly reading: Promise<MigLayoutReading> } | undefined;

  /** The MIG layouts, read at most once a second like smi(); `fresh` for an operation that must see the GPU as it is now. */
  function migLayouts(fresh = false): Promise<MigLayoutReading> {
    const now = Date.now();
    if (!fresh && lastMig && now - lastMig.at < SMI_REUSE_MS) return lastMig.reading;
    const reading = readMigLayouts(context.runCommand, settings.nvidiaSmiPath, smiTimeoutMs);
    lastMig = { at: now, reading };
    return reading;
  }

  /** A MIG-capable GPU's partitioning; none when the GPU cannot do MIG or nvidia-smi cannot tell (then the ledger keeps what it knew). */
  function partitioningOf(gpu: PciFunction, mig: MigLayoutReading | undefined): ReportedPartitioning | undefined {
    const model = NVIDIA_GPU_MODELS[gpu.productId];
    const layout = mig?.status === 'ok' ? mig.gpus.get(gpu.address) : undefined;
    if (model?.migSlices === undefined || settings.vgpuTypes[gpu.address] || !layout || layout.migCurrent === null) return undefined;
    return migPartitioning(layout, { migSlices: model.migSlices, memoryGiB: model.memoryGiB });
  }

  /** A GPU: NVIDIA's VGA (0300) or 3D (0302) controller that is not a VF. Its audio and USB functions are other classes. */
  const isGpu = (fn: PciFunction) =>
    fn.vendorId === NVIDIA && (fn.classCode.startsWith('0300') || fn.classCode.startsWith('0302')) && fn.physicalFunction === null;

  async function findDevices(functions: readonly PciFunction[]): Promise<ManagedDevice[]> {
    const gpus = functions.filter(isGpu);
    if (gpus.length === 0) return [];
    const byAddress = indexByAddress(functions);
    const reading = await smi();
    const mig = gpus.some((gpu) => NVIDIA_GPU_MODELS[gpu.productId]?.migSlices !== undefined) ? await migLayouts() : undefined;
    if (mig?.status === 'failed') context.logger.warn(`nvidia-gpu: MIG layout unreadable (${mig.reason}); partitions not reported`);
    return gpus.map((gpu) => {
      const seen = reading.status === 'ok' ? reading.gpus.get(gpu.address) : undefined;
      const known = NVIDIA_GPU_MODELS[gpu.productId];
      const memoryGiB = known?.memoryGiB ?? (seen?.memoryTotalMiB ? Math.round(seen.memoryTotalMiB / 1024) : undefined);
      const vgpuType = settings.vgpuTypes[gpu.address];
      const deployable = vgpuType ? vgpuDeployable(gpu, presentVfs(gpu, byAddress), vgpuType) : pgpuDeployable(gpu);
      const report = pciDeviceReport(gpu, {
        type: 'GPU',
        model: known?.model ?? `NVIDIA GPU ${NVIDIA}:${gpu.productId}`,
        boardInfo: {
          ...(seen?.uuid ? { uuid: seen.uuid } : {}),
          ...(seen?.migMode ? { mig_mode: seen.migMode } : {}),
        },
        ...(memoryGiB !== undefined ? { capacity: { memoryGiB } } : {}),
        deployables: [deployable],
        partitioning: partitioningOf(gpu, mig),
      });
      return { device: gpu, functions: vgpuType ? [] : [gpu], report };
    });
  }

  function pgpuDeployable(gpu: PciFunction): ReportedDeployable {
    return {
      resourceClass: 'PGPU',
      count: 1,
      traits: [OWNER_CYBORG, `CUSTOM_NVIDIA_${traitPart(gpu.productId)}`],
      driverName: 'nvidia-gpu',
      attachHandles: [{ kind: 'PCI', address: gpu.address }],
    };
  }

  /** Cyborg's count: free instances plus those created; each a handle, slot by slot, on the function that offers it. */
  function vgpuDeployable(gpu: PciFunction, vfs: readonly PciFunction[], vgpuType: string): ReportedDeployable {
    const handles: ReportedAttachHandle[] = [];
    let typeName: string | null = null;
    for (const parent of [gpu, ...vfs]) {
      const type = parent.mdevTypes.find((candidate) => candidate.id === vgpuType);
      if (!type) continue;
      typeName ??= type.name;
      const instances = type.availableInstances + parent.mdevs.filter((mdev) => mdev.type === vgpuType).length;
      for (let slot = 0; slot < instances; slot++) handles.push({ kind: 'MDEV', address: parent.address, mdevType: vgpuType, slot });
    }
    if (handles.length === 0) {
      context.logger.warn(`nvidia-gpu: ${gpu.address} is configured for vGPU type ${vgpuType} but offers none now (driver ${gpu.driver ?? 'none'}); reported with no vGPU`);
    }
    // Cyborg's trait: the type's board name, `GRID T4-2B` → `T4_2B`.
    const suffix = traitPart(typeName?.split(/\s+/).pop() ?? vgpuType);
    return {
      resourceClass: 'VGPU',
      count: handles.length,
      traits: [OWNER_CYBORG, `CUSTOM_NVIDIA_${traitPart(gpu.productId)}_${suffix}`],
      driverName: 'nvidia-gpu',
      attachHandles: handles,
    };
  }

  /**
   * A released GPU is reset by nvidia-smi before its function-level reset:
   * the GPU reset clears its framebuffer (and, with ECC on, scrubs it), which
   * an FLR alone does not promise. Without nvidia-smi the FLR is all there is, and the step says so.
   */
  async function resetGpu(fn: PciFunction, ran: CleanStepDone[]): Promise<void> {
    if (!isGpu(fn)) return;
    const step = `GPU memory scrub and reset of ${fn.address} (nvidia-smi --gpu-reset)`;
    const result = await context.runCommand(settings.nvidiaSmiPath, ['--gpu-reset', '-i', fn.address], { timeoutMs: Math.max(smiTimeoutMs, GPU_RESET_TIMEOUT_MS) });
    if (result.spawnError === 'ENOENT') return void ran.push({ step, result: `skipped: no ${settings.nvidiaSmiPath}` });
    if (result.exitCode === 0) return void ran.push({ step, result: 'ok' });
    const why = result.timedOut ? 'timed out' : (result.stderr || result.stdout).trim().slice(-300) || `exit ${result.exitCode}`;
    ran.push({ step, result: `failed: ${why}` });
    throw cleanFailed(`GPU reset of ${fn.address} failed: ${why}`, ran);
  }

  const basics = sysfsDriverBasics(sysfs, findDevices, resetGpu);

  const mig = migOperations({
    run: (args) => runNvidiaSmi(context.runCommand, settings.nvidiaSmiPath, args, smiTimeoutMs),
    readLayouts: () => migLayouts(true),
  });

  /** The MIG-capable GPU at a PCI address, read afresh. */
  async function migGpu(address: string): Promise<MigGpu> {
    if (normalizePciAddress(address) === undefined) throw invalidParams(`"${address}" is not a PCI address`);
    sysfs.invalidate();
    const gpu = (await sysfs.scanPci()).find((fn) => fn.address === normalizePciAddress(address) && isGpu(fn));
    const model = gpu && NVIDIA_GPU_MODELS[gpu.productId];
    if (!gpu || model?.migSlices === undefined) throw untouched(DRIVER_ERROR_CODES.deviceNotFound, `no MIG-capable NVIDIA GPU at ${address}`);
    return { pciAddress: gpu.address, migSlices: model.migSlices, memoryGiB: model.memoryGiB };
  }

  /** The GPU or VF that holds a job's mdevs, read afresh. */
  async function mdevParent(params: JobParams): Promise<PciFunction> {
    const address = pciAddressParam(params);
    sysfs.invalidate();
    const functions = await sysfs.scanPci();
    const parent = functions.find((fn) => fn.address === address);
    const gpu = parent && (isGpu(parent) ? parent : functions.find((fn) => fn.address === parent.physicalFunction && isGpu(fn)));
    if (!parent || !gpu) throw untouched(DRIVER_ERROR_CODES.deviceNotFound, `no NVIDIA GPU or GPU VF at ${address}`);
    return parent;
  }

  return {
    name: 'nvidia-gpu',
    playbooks: context.playbooks,
    discover: basics.discover,
    attach: basics.attach,
    probe: basics.probe,
    detach: basics.detach,
    clean: basics.clean,

    async health(): Promise<DeviceHealthSample[]> {
      const gpus = (await sysfs.scanPci()).filter(isGpu);
      if (gpus.length === 0) return [];
      const [reading, xids] = await Promise.all([smi(), settings.xidLogPath ? readCriticalXids(settings.xidLogPath) : new Map()]);
      return gpus.map((gpu) => nvidiaGpuHealth(gpu, reading, xids));
    },

    async createMdev(params: JobParams): Promise<JobEvidence> {
      const mdevType = nameParam(params, 'mdevType');
      const mdevUuid = uuidParam(params, 'mdevUuid');
      return createMdev(sysfs, await mdevParent(params), mdevType, mdevUuid);
    },

    async removeMdev(params: JobParams): Promise<JobEvidence> {
      const mdevUuid = uuidParam(params, 'mdevUuid');
      return removeMdev(sysfs, await mdevParent(params), mdevUuid);
    },

    async carvePartition(device, profile, placement) {
      return mig.carve(await migGpu(device), profile, placement);
    },

    async destroyPartition(device, partition) {
      return mig.destroy(await migGpu(device), partition);
    },

    // The bind's carve-partition step and its undoing come as jobs (docs/partitions.md).
    async carve(params: JobParams): Promise<JobEvidence> {
      const { profile, start } = carveParams(params);
      return mig.carve(await migGpu(pciAddressParam(params)), profile, start);
    },

    async destroy(params: JobParams): Promise<JobEvidence> {
      return mig.destroy(await migGpu(pciAddressParam(params)), partitionHandleParam(params));
    },
  };
}
