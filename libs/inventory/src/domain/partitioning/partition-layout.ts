import type { ReportedPartitionProfile, ReportedPartitioning } from '../host-report';

/** A span of the parent's slices: `[start, start + slices)`. */
export interface SliceSpan {
  readonly start: number;
  readonly slices: number;
}

const overlaps = (a: SliceSpan, b: SliceSpan): boolean => a.start < b.start + b.slices && b.start < a.start + a.slices;

/** Starts a profile may take: its placements, or every slice when it names none. */
const startsOf = (profile: ReportedPartitionProfile, parentSlices: number): readonly number[] =>
  profile.placements ?? Array.from({ length: parentSlices }, (_, start) => start);

/** Compute slices the parent has: the largest profile's (MIG's 7g: 7 of 8 memory slices); absent when no profile says. */
function computeBudget(partitioning: ReportedPartitioning): number | undefined {
  const budgets = partitioning.profiles.flatMap((profile) => (profile.computeSlices === undefined ? [] : [profile.computeSlices]));
  return budgets.length === 0 ? undefined : Math.max(...budgets);
}

function computeUsed(partitioning: ReportedPartitioning, spans: readonly (SliceSpan & { readonly profile: string })[]): number {
  const byName = new Map(partitioning.profiles.map((profile) => [profile.name, profile]));
  return spans.reduce((sum, span) => sum + (byName.get(span.profile)?.computeSlices ?? 0), 0);
}

/**
 * Where new partitions of `profileName` would go on the parent, besides
 * `taken` (spans already carved or promised), first placement first; as
 * many as fit (free slices, the profile's placements and maximum count,
 * the parent's compute slices). Equal-sized spans on a line: taking the
 * lowest free start each time places the most of them.
 */
export function carvableSpans(
  partitioning: ReportedPartitioning,
  profileName: string,
  taken: readonly (SliceSpan & { readonly profile: string })[] = partitioning.partitions,
): SliceSpan[] {
  if (!partitioning.enabled) return [];
  const profile = partitioning.profiles.find((candidate) => candidate.name === profileName);
  if (!profile) return [];
  const budget = computeBudget(partitioning);
  let computeLeft = budget === undefined ? Infinity : budget - computeUsed(partitioning, taken);
  let countLeft = profile.maxCount - taken.filter((span) => span.profile === profileName).length;
  const chosen: SliceSpan[] = [];
  for (const start of [...startsOf(profile, partitioning.slices)].sort((a, b) => a - b)) {
    const span = { start, slices: profile.slices };
    if (countLeft <= 0 || computeLeft < (profile.computeSlices ?? 0)) break;
    if (start + span.slices > partitioning.slices) continue;
    if (taken.some((other) => overlaps(other, span)) || chosen.some((other) => overlaps(other, span))) continue;
    chosen.push(span);
    countLeft -= 1;
    computeLeft -= profile.computeSlices ?? 0;
  }
  return chosen;
}

/** How many more partitions of each profile could be carved now, by profile name (what Placement is offered as room to carve). */
export function roomToCarve(partitioning: ReportedPartitioning): ReadonlyMap<string, number> {
  return new Map(partitioning.profiles.map((profile) => [profile.name, carvableSpans(partitioning, profile.name).length]));
}

/** The slices the partitions take, summed: with the free slices, the parent's capacity (the never-stranded check adds them up). */
export const carvedSlices = (partitioning: ReportedPartitioning): number =>
  partitioning.partitions.reduce((sum, partition) => sum + partition.slices, 0);

export { overlaps as spansOverlap };
