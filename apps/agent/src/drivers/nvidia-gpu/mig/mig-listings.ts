/**
 * Parsers for the tables `nvidia-smi mig` prints. Each reads the rows it
 * knows by their shape and ignores every other line (borders, headers, the
 * second line of a profile, notes), so a table cut short or a column added
 * at the end still yields what it has. "No … found" is an empty listing.
 */

/** A row of `nvidia-smi mig -lgip`: one GPU instance profile of one GPU. */
export interface GpuInstanceProfileRow {
  readonly gpu: number;
  /** Without `MIG `: `1g.10gb`, `1g.10gb+me`. */
  readonly name: string;
  readonly profileId: number;
  readonly free: number;
  readonly total: number;
  readonly memoryGiB: number;
  readonly multiprocessors: number;
}

/** A line of `nvidia-smi mig -lgipp`: where instances of one profile may start, and their size, in memory slices. */
export interface GpuInstancePlacementRow {
  readonly gpu: number;
  readonly profileId: number;
  readonly starts: readonly number[];
  readonly size: number;
}

/** A row of `nvidia-smi mig -lgi`: a GPU instance that exists. */
export interface GpuInstanceRow {
  readonly gpu: number;
  readonly name: string;
  readonly profileId: number;
  readonly gpuInstanceId: number;
  readonly start: number;
  readonly size: number;
}

/** A row of `nvidia-smi mig -lci`: a compute instance inside a GPU instance (older drivers print no placement). */
export interface ComputeInstanceRow {
  readonly gpu: number;
  readonly gpuInstanceId: number;
  readonly name: string;
  readonly profileId: number;
  readonly computeInstanceId: number;
}

const PROFILE_ROW = /^\|\s*(\d+)\s+MIG\s+(\S+)\s+(\d+)\s+(\d+)\/(\d+)\s+(\d+(?:\.\d+)?)\s+(?:Yes|No)\s+(\d+)\s/;
const PLACEMENT_LINE = /^GPU\s+(\d+)\s+Profile ID\s+(\d+)\s+Placements?\s*:\s*\{([\d,\s]*)\}:(\d+)/;
const GPU_INSTANCE_ROW = /^\|\s*(\d+)\s+MIG\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+):(\d+)\s*\|/;
const COMPUTE_INSTANCE_ROW = /^\|\s*(\d+)\s+(\d+)\s+MIG\s+(\S+)\s+(\d+)\*?\s+(\d+)(?:\s+\d+:\d+)?\s*\|/;

export function parseGpuInstanceProfiles(text: string): GpuInstanceProfileRow[] {
  return rows(text, PROFILE_ROW, ([gpu, name, profileId, free, total, memoryGiB, multiprocessors]) => ({
    gpu: Number(gpu),
    name,
    profileId: Number(profileId),
    free: Number(free),
    total: Number(total),
    memoryGiB: Number(memoryGiB),
    multiprocessors: Number(multiprocessors),
  }));
}

export function parseGpuInstancePlacements(text: string): GpuInstancePlacementRow[] {
  return rows(text, PLACEMENT_LINE, ([gpu, profileId, starts, size]) => ({
    gpu: Number(gpu),
    profileId: Number(profileId),
    starts: starts
      .split(',')
      .map((start) => start.trim())
      .filter((start) => start !== '')
      .map(Number),
    size: Number(size),
  }));
}

export function parseGpuInstances(text: string): GpuInstanceRow[] {
  return rows(text, GPU_INSTANCE_ROW, ([gpu, name, profileId, gpuInstanceId, start, size]) => ({
    gpu: Number(gpu),
    name,
    profileId: Number(profileId),
    gpuInstanceId: Number(gpuInstanceId),
    start: Number(start),
    size: Number(size),
  }));
}

export function parseComputeInstances(text: string): ComputeInstanceRow[] {
  return rows(text, COMPUTE_INSTANCE_ROW, ([gpu, gpuInstanceId, name, profileId, computeInstanceId]) => ({
    gpu: Number(gpu),
    gpuInstanceId: Number(gpuInstanceId),
    name,
    profileId: Number(profileId),
    computeInstanceId: Number(computeInstanceId),
  }));
}

function rows<T>(text: string, shape: RegExp, read: (groups: string[]) => T): T[] {
  return text.split('\n').flatMap((line) => {
    const match = shape.exec(line.trim());
    return match ? [read(match.slice(1))] : [];
  });
}
