import type { HeldInterval } from './held-interval';
import type { UsageGroupBy, UsageWindow } from './usage-window';

/** One group's use in a window; decimals are fixed (3 places) so the same facts give the same text. */
export interface UsageRow {
  /** The project, resource class or device uuid; null where the log never named it (a claim without its request). */
  readonly group: string | null;
  /** Tenancies that overlap the window. */
  readonly tenancies: number;
  readonly heldSeconds: string;
  /** GiB of GPU memory × seconds held, over the tenancies whose device reported its memory. */
  readonly gpuMemoryGiBSeconds: string;
  /** MIG slices × seconds held; null until devices report slices. */
  readonly migSliceSeconds: string | null;
}

interface Sums {
  tenancies: number;
  heldMs: number;
  memoryGiBMs: number;
  migSliceMs: number | null;
}

const millis = (time: string): number => Date.parse(time);
const seconds = (ms: number): string => (ms / 1000).toFixed(3);

/**
 * Folds tenancies into per-group use of [window.from.time, window.to.time):
 * each tenancy counts from its claim (or the window's start) to its release
 * (or the window's end when it was still held at `window.to.position`).
 * Pure and order-fixed (by claim position), so the live ledger and an
 * export give the same sums.
 */
export function foldUsage(intervals: readonly HeldInterval[], window: UsageWindow, groupBy: UsageGroupBy): UsageRow[] {
  const start = millis(window.from.time);
  const end = millis(window.to.time);
  const groups = new Map<string | null, Sums>();
  for (const held of [...intervals].sort((a, b) => a.fromPosition - b.fromPosition)) {
    if (held.fromPosition > window.to.position) continue;
    const released = held.toPosition !== null && held.toPosition <= window.to.position;
    const heldMs = Math.min(end, released ? millis(held.toTime!) : end) - Math.max(start, millis(held.fromTime));
    if (heldMs <= 0) continue;
    const key = groupOf(held, groupBy);
    const sums = groups.get(key) ?? { tenancies: 0, heldMs: 0, memoryGiBMs: 0, migSliceMs: null };
    sums.tenancies += 1;
    sums.heldMs += heldMs;
    sums.memoryGiBMs += (held.capacity.memoryGiB ?? 0) * heldMs;
    if (held.capacity.migSlices !== null) sums.migSliceMs = (sums.migSliceMs ?? 0) + held.capacity.migSlices * heldMs;
    groups.set(key, sums);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => byGroup(a, b))
    .map(([group, sums]) => ({
      group,
      tenancies: sums.tenancies,
      heldSeconds: seconds(sums.heldMs),
      gpuMemoryGiBSeconds: seconds(sums.memoryGiBMs),
      migSliceSeconds: sums.migSliceMs === null ? null : seconds(sums.migSliceMs),
    }));
}

/** Code-unit order, null first: not the locale's, which differs between machines. */
function byGroup(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

function groupOf(held: HeldInterval, groupBy: UsageGroupBy): string | null {
  if (groupBy === 'project') return held.projectId;
  if (groupBy === 'resourceClass') return held.resourceClass;
  return held.deviceUuid;
}
