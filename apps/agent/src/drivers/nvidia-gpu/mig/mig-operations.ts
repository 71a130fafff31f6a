import { DriverOperationError, type JobEvidence } from '../../accelerator-driver';
import { DRIVER_ERROR_CODES, invalidParams, untouched } from '../../driver-errors';
import type { NvidiaSmiRun } from '../nvidia-smi';
import { createGpuInstanceArgs, destroyComputeInstanceArgs, destroyGpuInstanceArgs, parseCreatedInstances } from './mig-commands';
import type { MigGpuLayout, MigLayoutReading } from './mig-layout';
import { migPartitioning, type MigModel } from './mig-partitioning';

/** The NVIDIA driver's partition operations (issue 26); the bind's carve step and the reclaim call them through jobs. */
export interface PartitionOperations {
  /** Carves a GPU instance of `profile` (`1g.10gb`) with its default compute instance, at slice `placement` when given. */
  carvePartition(device: string, profile: string, placement?: number): Promise<JobEvidence>;
  /** Destroys a partition (its compute instances, then its GPU instance) by its handle; one already gone is success. */
  destroyPartition(device: string, partition: string): Promise<JobEvidence>;
}

export interface MigTools {
  /** Runs nvidia-smi with these arguments. */
  run(args: readonly string[]): Promise<NvidiaSmiRun>;
  /** Reads every GPU's layout afresh. */
  readLayouts(): Promise<MigLayoutReading>;
}

/** A MIG-capable GPU found on the bus: its address and what its model table entry says of MIG. */
export interface MigGpu extends MigModel {
  readonly pciAddress: string;
}

export interface MigOperations {
  carve(gpu: MigGpu, profile: string, placement?: number): Promise<JobEvidence>;
  destroy(gpu: MigGpu, handle: string): Promise<JobEvidence>;
}

export function migOperations(tools: MigTools): MigOperations {
  async function layoutOf(pciAddress: string): Promise<MigGpuLayout & { readonly uuid: string }> {
    const reading = await tools.readLayouts();
    if (reading.status !== 'ok') {
      throw untouched(DRIVER_ERROR_CODES.toolFailed, reading.status === 'absent' ? 'nvidia-smi is not installed' : reading.reason);
    }
    const layout = reading.gpus.get(pciAddress);
    if (!layout || layout.uuid === null) throw untouched(DRIVER_ERROR_CODES.deviceNotFound, `nvidia-smi does not list the GPU at ${pciAddress}`);
    if (layout.migCurrent !== 'Enabled') throw invalidParams(`MIG mode is off on ${pciAddress} (pending: ${layout.migPending ?? 'unknown'})`);
    return { ...layout, uuid: layout.uuid };
  }

  const partitionsOf = (layout: MigGpuLayout, gpu: MigGpu) => migPartitioning(layout, gpu).partitions;

  /** The layout after a command ran: one that cannot be read leaves the GPU's state unknown, not unchanged. */
  async function readBack(pciAddress: string, after: string): Promise<MigGpuLayout & { readonly uuid: string }> {
    try {
      return await layoutOf(pciAddress);
    } catch (error) {
      const cause = error as DriverOperationError;
      throw new DriverOperationError(cause.code, `${after}, reading the layout back failed: ${cause.message}`, 'unknown (the MIG layout could not be read back)');
    }
  }

  /** Destroys a GPU instance and its compute instances; returns why it could not, or null. */
  async function destroyGpuInstance(layout: MigGpuLayout & { readonly uuid: string }, gpuInstanceId: number): Promise<string | null> {
    for (const ci of layout.computeInstances.filter((candidate) => candidate.gpuInstanceId === gpuInstanceId)) {
      const run = await tools.run(destroyComputeInstanceArgs(layout.uuid, gpuInstanceId, ci.computeInstanceId));
      if (run.status !== 'ok') return run.status === 'failed' ? run.reason : 'nvidia-smi disappeared';
    }
    const run = await tools.run(destroyGpuInstanceArgs(layout.uuid, gpuInstanceId));
    return run.status === 'ok' ? null : run.status === 'failed' ? run.reason : 'nvidia-smi disappeared';
  }

  return {
    async carve(gpu, profileName, placement) {
      const device = gpu.pciAddress;
      const before = await layoutOf(device);
      const profile = before.profiles.find((candidate) => candidate.name === profileName);
      if (!profile) {
        const offered = before.profiles.map((candidate) => candidate.name).join(', ') || 'none';
        throw invalidParams(`${device} has no MIG profile ${profileName} (offers: ${offered})`);
      }
      const starts = before.placements.find((candidate) => candidate.profileId === profile.profileId)?.starts;
      if (placement !== undefined && starts !== undefined && !starts.includes(placement)) {
        throw invalidParams(`${profileName} cannot start at slice ${placement} on ${device} (placements: ${starts.join(', ')})`);
      }
      // A carve offered again (the agent restarted before reporting) finds its partition at the placement it named.
      const carvedBefore = placement === undefined ? undefined : before.gpuInstances.find((gi) => gi.profileId === profile.profileId && gi.start === placement);
      const existing = carvedBefore && partitionsOf(before, gpu).find((candidate) => candidate.gpuInstanceId === carvedBefore.gpuInstanceId);
      if (existing?.computeInstanceId !== undefined) return { pciAddress: device, profileId: profile.profileId, ...existing, changed: false };
      if (profile.free < 1) throw untouched(DRIVER_ERROR_CODES.noCapacity, `${device} has no room for another ${profileName}`);

      const run = await tools.run(createGpuInstanceArgs(before.uuid, profile.profileId, placement));
      const after = await readBack(device, `after carving ${profileName} on ${device}`);
      const existed = new Set(before.gpuInstances.map((gi) => gi.gpuInstanceId));
      const created = run.status === 'ok' || run.status === 'failed' ? parseCreatedInstances(run.status === 'ok' ? run.stdout : run.output) : undefined;
      const madeIds = created?.gpuInstances.map((gi) => gi.gpuInstanceId) ?? [];
      // Read back, not assumed: what exists now that did not before (the output may be cut short by a timeout).
      const made = after.gpuInstances.filter((gi) => !existed.has(gi.gpuInstanceId) && (madeIds.length === 0 || madeIds.includes(gi.gpuInstanceId)));
      const partition = made.length === 1 ? partitionsOf(after, gpu).find((candidate) => candidate.gpuInstanceId === made[0].gpuInstanceId) : undefined;
      if (run.status === 'ok' && partition?.computeInstanceId !== undefined && partition.handle.startsWith('MIG-')) {
        return { pciAddress: device, profileId: profile.profileId, ...partition, changed: true };
      }
      const failures = await Promise.all(made.map((gi) => destroyGpuInstance(after, gi.gpuInstanceId)));
      const left = made.filter((_, index) => failures[index] !== null).map((gi) => `GPU instance ${gi.gpuInstanceId}`);
      const why = run.status === 'failed' ? run.reason : made.length === 0 ? 'no new GPU instance appeared' : 'the new GPU instance has no MIG device';
      throw new DriverOperationError(
        run.status === 'failed' ? DRIVER_ERROR_CODES.toolFailed : DRIVER_ERROR_CODES.verifyFailed,
        `carving ${profileName} on ${device} failed: ${why}`,
        left.length > 0 ? `${left.join(', ')} still exist` : made.length > 0 ? 'unchanged (what was carved was destroyed again)' : 'unchanged',
        { madeGpuInstances: made.map((gi) => gi.gpuInstanceId) },
      );
    },

    async destroy(gpu, handle) {
      const device = gpu.pciAddress;
      const layout = await layoutOf(device);
      const partition = partitionsOf(layout, gpu).find((candidate) => candidate.handle === handle);
      if (!partition || partition.gpuInstanceId === undefined) return { pciAddress: device, handle, changed: false };
      const failure = await destroyGpuInstance(layout, partition.gpuInstanceId);
      const after = await readBack(device, `after destroying ${handle} on ${device}`);
      const stillThere = after.gpuInstances.some((gi) => gi.gpuInstanceId === partition.gpuInstanceId);
      if (failure !== null || stillThere) {
        const code = failure !== null && /in use/i.test(failure) ? DRIVER_ERROR_CODES.deviceBusy : failure !== null ? DRIVER_ERROR_CODES.toolFailed : DRIVER_ERROR_CODES.verifyFailed;
        throw new DriverOperationError(
          code,
          `destroying ${handle} on ${device} failed: ${failure ?? 'its GPU instance is still there'}`,
          stillThere ? `GPU instance ${partition.gpuInstanceId} still exists` : `GPU instance ${partition.gpuInstanceId} destroyed`,
        );
      }
      return { pciAddress: device, handle, gpuInstanceId: partition.gpuInstanceId, changed: true };
    },
  };
}
