import { foldUsage } from './fold-usage';
import type { HeldInterval } from './held-interval';
import type { UsageWindow } from './usage-window';

const at = (clock: string) => `2026-11-01T${clock}.000Z`;
const D1 = 'd1';
const D2 = 'd2';

/** 10:00 to 12:00; the report is computed at position 100. */
const WINDOW: UsageWindow = { from: { position: 5, time: at('10:00:00') }, to: { position: 100, time: at('12:00:00') } };

const held = (projectId: string, deviceUuid: string, from: [number, string], to: [number, string] | null, memoryGiB: number | null, resourceClass = 'GPU'): HeldInterval => ({
  deviceUuid,
  projectId,
  resourceClass,
  fromPosition: from[0],
  fromTime: at(from[1]),
  toPosition: to?.[0] ?? null,
  toTime: to ? at(to[1]) : null,
  capacity: { memoryGiB, migSlices: null },
});

const HISTORY: HeldInterval[] = [
  held('p1', D1, [1, '09:00:00'], [10, '10:30:00'], 80), // over the window's start: 10:00–10:30, 1,800 s
  held('p1', D1, [20, '11:00:00'], [30, '11:15:00'], 80), // the same device claimed again: 900 s
  held('p2', D2, [40, '11:30:00'], null, null, 'FPGA'), // still held at `to`, no memory reported: 1,800 s
  held('p2', D1, [50, '11:45:00'], [120, '13:00:00'], 80), // released after the report's position: held to 12:00, 900 s
  held('p1', D2, [2, '08:00:00'], [3, '09:30:00'], null), // over before the window
  held('p2', D2, [110, '11:50:00'], null, 80), // claimed after the report's position
];

describe('foldUsage', () => {
  it('sums seconds held and GiB-seconds per project, clipped to [from, to) at the report position', () => {
    expect(foldUsage(HISTORY, WINDOW, 'project')).toEqual([
      { group: 'p1', tenancies: 2, heldSeconds: '2700.000', gpuMemoryGiBSeconds: '216000.000', migSliceSeconds: null },
      { group: 'p2', tenancies: 2, heldSeconds: '2700.000', gpuMemoryGiBSeconds: '72000.000', migSliceSeconds: null },
    ]);
  });

  it('groups by device and by resource class', () => {
    expect(foldUsage(HISTORY, WINDOW, 'device').map((r) => [r.group, r.tenancies, r.heldSeconds, r.gpuMemoryGiBSeconds])).toEqual([
      [D1, 3, '3600.000', '288000.000'],
      [D2, 1, '1800.000', '0.000'],
    ]);
    expect(foldUsage(HISTORY, WINDOW, 'resourceClass').map((r) => [r.group, r.tenancies, r.heldSeconds])).toEqual([
      ['FPGA', 1, '1800.000'],
      ['GPU', 3, '3600.000'],
    ]);
  });

  it('counts a tenancy held across the whole window as the whole window, to the millisecond', () => {
    const across = { ...held('p3', D1, [1, '09:59:59'], null, 40.5), fromTime: '2026-11-01T09:59:59.999Z' };
    const window = { ...WINDOW, to: { position: 100, time: '2026-11-01T10:00:00.250Z' } };
    expect(foldUsage([across], window, 'project')).toEqual([{ group: 'p3', tenancies: 1, heldSeconds: '0.250', gpuMemoryGiBSeconds: '10.125', migSliceSeconds: null }]);
  });

  it('gives the same rows whatever order the tenancies come in', () => {
    expect(foldUsage([...HISTORY].reverse(), WINDOW, 'project')).toEqual(foldUsage(HISTORY, WINDOW, 'project'));
  });

  it('sums MIG slice-seconds once a device reports slices', () => {
    const sliced = { ...held('p1', D1, [20, '11:00:00'], [30, '11:15:00'], 10), capacity: { memoryGiB: 10, migSlices: 2 } };
    expect(foldUsage([sliced], WINDOW, 'project')[0].migSliceSeconds).toBe('1800.000');
  });

  it('answers nothing for a window nobody held a device in', () => {
    expect(foldUsage(HISTORY, { from: { position: 0, time: at('06:00:00') }, to: { position: 0, time: at('07:00:00') } }, 'project')).toEqual([]);
  });
});
