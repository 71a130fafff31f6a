/**
 * The `nvidia-smi mig` commands that change a GPU, and readers of what
 * they print. A GPU is named by its UUID (`-i GPU-…`), which unlike an
 * index does not move when another GPU drops off the bus.
 */

/** `-cgi <profile>[:<start>] -C`: one GPU instance, at a placement when given, with its default compute instance. */
export function createGpuInstanceArgs(gpuUuid: string, profileId: number, start?: number): string[] {
  const tuple = start === undefined ? `${profileId}` : `${profileId}:${start}`;
  return ['mig', '-i', gpuUuid, '-cgi', tuple, '-C'];
}

export function destroyComputeInstanceArgs(gpuUuid: string, gpuInstanceId: number, computeInstanceId: number): string[] {
  return ['mig', '-i', gpuUuid, '-gi', `${gpuInstanceId}`, '-ci', `${computeInstanceId}`, '-dci'];
}

export function destroyGpuInstanceArgs(gpuUuid: string, gpuInstanceId: number): string[] {
  return ['mig', '-i', gpuUuid, '-gi', `${gpuInstanceId}`, '-dgi'];
}

/** What `-cgi … -C` reports having made: GPU instances, and compute instances by their GPU instance. */
export interface CreatedInstances {
  readonly gpuInstances: readonly { readonly gpuInstanceId: number; readonly profile: string; readonly profileId: number }[];
  /** Older drivers do not print the compute instance's id (`created compute instance on GPU …`): null then. */
  readonly computeInstances: readonly { readonly gpuInstanceId: number; readonly computeInstanceId: number | null }[];
}

const CREATED_GI = /^Successfully created GPU instance ID\s+(\d+) on GPU\s+\d+ using profile MIG\s+(\S+)\s+\(ID\s+(\d+)\)/;
const CREATED_CI = /^Successfully created compute instance(?: ID\s+(\d+))? on GPU\s+\d+ GPU instance ID\s+(\d+)/;
const DESTROYED_CI = /^Successfully destroyed compute instance ID\s+(\d+) from GPU\s+\d+ GPU instance ID\s+(\d+)/;
const DESTROYED_GI = /^Successfully destroyed GPU instance ID\s+(\d+) from GPU\s+\d+/;

export function parseCreatedInstances(output: string): CreatedInstances {
  const gpuInstances: { gpuInstanceId: number; profile: string; profileId: number }[] = [];
  const computeInstances: { gpuInstanceId: number; computeInstanceId: number | null }[] = [];
  for (const line of lines(output)) {
    const gi = CREATED_GI.exec(line);
    if (gi) gpuInstances.push({ gpuInstanceId: Number(gi[1]), profile: gi[2], profileId: Number(gi[3]) });
    const ci = CREATED_CI.exec(line);
    if (ci) computeInstances.push({ gpuInstanceId: Number(ci[2]), computeInstanceId: ci[1] === undefined ? null : Number(ci[1]) });
  }
  return { gpuInstances, computeInstances };
}

/** `-dci`: the compute instances destroyed, as `{gpuInstanceId, computeInstanceId}`. */
export function parseDestroyedComputeInstances(output: string): { gpuInstanceId: number; computeInstanceId: number }[] {
  return lines(output).flatMap((line) => {
    const match = DESTROYED_CI.exec(line);
    return match ? [{ gpuInstanceId: Number(match[2]), computeInstanceId: Number(match[1]) }] : [];
  });
}

/** `-dgi`: the GPU instance ids destroyed. */
export function parseDestroyedGpuInstances(output: string): number[] {
  return lines(output).flatMap((line) => {
    const match = DESTROYED_GI.exec(line);
    return match ? [Number(match[1])] : [];
  });
}

const lines = (output: string): string[] => output.split('\n').map((line) => line.trim());
