import {
  HOST_REPORT_LIMITS,
  PARTITIONING_KINDS,
  type ReportedPartition,
  type ReportedPartitionProfile,
  type ReportedPartitioning,
} from '../host-report';
import { compareStrings } from '../identity';
import { ReportInvalidError } from '../inventory.errors';
import { arrayOf, integerAt, isObject, oneOf, optional, patternAt } from '../report-member-rules';
import { spansOverlap } from './partition-layout';

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9.+_-]*$/;
const PARTITION_HANDLE = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
const MAX_TOKEN = 128;
const MAX_SLICES = 64;
const MAX_COUNT = 65_535;

/**
 * Checks a device's `partitioning` and returns it in canonical form:
 * profiles sorted by name, placements sorted and unique, partitions sorted
 * by start. A partition must name a profile, take that profile's slices at
 * one of its placements, stay inside the parent and overlap no other; a
 * device whose MIG mode is off has none. Throws ReportInvalidError naming
 * the path.
 */
export function normalizePartitioning(value: ReportedPartitioning, path: string): ReportedPartitioning {
  if (!isObject(value)) throw new ReportInvalidError(path, 'must be an object', value);
  const kind = oneOf(value.kind, PARTITIONING_KINDS, `${path}.kind`);
  if (typeof value.enabled !== 'boolean') throw new ReportInvalidError(`${path}.enabled`, 'must be true or false', value.enabled);
  const slices = integerAt(value.slices, `${path}.slices`, 1, MAX_SLICES);
  const profiles = arrayOf(value.profiles, `${path}.profiles`, HOST_REPORT_LIMITS.partitionProfilesPerDevice).map((profile, index) =>
    normalizeProfile(profile, slices, `${path}.profiles[${index}]`),
  );
  uniqueBy(profiles, (profile) => profile.name, `${path}.profiles`, 'name');
  const partitions = arrayOf(value.partitions, `${path}.partitions`, HOST_REPORT_LIMITS.partitionsPerDevice).map((partition, index) =>
    normalizePartition(partition, slices, profiles, `${path}.partitions[${index}]`),
  );
  uniqueBy(partitions, (partition) => partition.handle, `${path}.partitions`, 'handle');
  if (!value.enabled && partitions.length > 0) throw new ReportInvalidError(`${path}.partitions`, 'must be empty while partitioning is not enabled');
  checkNoOverlap(partitions, `${path}.partitions`);
  return {
    kind,
    enabled: value.enabled,
    slices,
    profiles: [...profiles].sort((a, b) => compareStrings(a.name, b.name)),
    partitions: [...partitions].sort((a, b) => a.start - b.start),
  };
}

function normalizeProfile(profile: ReportedPartitionProfile, parentSlices: number, path: string): ReportedPartitionProfile {
  if (!isObject(profile)) throw new ReportInvalidError(path, 'must be an object', profile);
  const slices = integerAt(profile.slices, `${path}.slices`, 1, parentSlices);
  const placements = optional(profile.placements, (value) =>
    arrayOf(value, `${path}.placements`, HOST_REPORT_LIMITS.placementsPerProfile).map((start, index) =>
      integerAt(start, `${path}.placements[${index}]`, 0, parentSlices - slices),
    ),
  );
  return {
    name: patternAt(profile.name, PROFILE_NAME, `${path}.name`, 'must be a profile name (e.g. 1g.10gb, nvidia-35)', 64),
    profileId: optional(profile.profileId, (id) => integerAt(id, `${path}.profileId`, 0, MAX_COUNT)),
    slices,
    memoryMiB: optional(profile.memoryMiB, (memory) => integerAt(memory, `${path}.memoryMiB`, 0, 2 ** 31 - 1)),
    computeSlices: optional(profile.computeSlices, (compute) => integerAt(compute, `${path}.computeSlices`, 0, MAX_SLICES)),
    maxCount: integerAt(profile.maxCount, `${path}.maxCount`, 0, MAX_COUNT),
    placements: placements === undefined ? undefined : [...new Set(placements)].sort((a, b) => a - b),
  };
}

function normalizePartition(
  partition: ReportedPartition,
  parentSlices: number,
  profiles: readonly ReportedPartitionProfile[],
  path: string,
): ReportedPartition {
  if (!isObject(partition)) throw new ReportInvalidError(path, 'must be an object', partition);
  const profile = profiles.find((candidate) => candidate.name === partition.profile);
  if (!profile) throw new ReportInvalidError(`${path}.profile`, 'must name one of the profiles', partition.profile);
  const start = integerAt(partition.start, `${path}.start`, 0, parentSlices - 1);
  const slices = integerAt(partition.slices, `${path}.slices`, profile.slices, profile.slices);
  if (start + slices > parentSlices) throw new ReportInvalidError(path, `start ${start} + ${slices} slices is beyond the parent's ${parentSlices}`);
  if (profile.placements && !profile.placements.includes(start)) {
    throw new ReportInvalidError(`${path}.start`, `must be one of the placements of ${profile.name} (${profile.placements.join(', ')})`, start);
  }
  return {
    profile: profile.name,
    handle: patternAt(partition.handle, PARTITION_HANDLE, `${path}.handle`, 'must be a MIG device UUID, an mdev UUID or a region id', MAX_TOKEN),
    start,
    slices,
    gpuInstanceId: optional(partition.gpuInstanceId, (id) => integerAt(id, `${path}.gpuInstanceId`, 0, MAX_COUNT)),
    computeInstanceId: optional(partition.computeInstanceId, (id) => integerAt(id, `${path}.computeInstanceId`, 0, MAX_COUNT)),
  };
}

function uniqueBy<T>(items: readonly T[], keyOf: (item: T) => string, path: string, member: string): void {
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const key = keyOf(item);
    const before = seen.get(key);
    if (before !== undefined) throw new ReportInvalidError(`${path}[${index}].${member}`, `duplicates ${path}[${before}].${member}`, key);
    seen.set(key, index);
  });
}

function checkNoOverlap(partitions: readonly ReportedPartition[], path: string): void {
  partitions.forEach((partition, index) => {
    const other = partitions.findIndex((candidate, at) => at < index && spansOverlap(candidate, partition));
    if (other >= 0) throw new ReportInvalidError(`${path}[${index}]`, `overlaps ${path}[${other}] (slices ${partition.start}+${partition.slices})`);
  });
}
