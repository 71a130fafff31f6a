import { outOfBounds, withinBounds } from './record-bounds';

const CPU = { name: 'agents_heartbeat_cpu_ms', unit: 'ms', min: 0 };
const SHARE = { name: 'metrics_flow_cpu_share_pct', unit: '%', min: 0, max: 100 };
const OVERHEAD = { name: 'logging_overhead_pct', unit: '%' };

describe('outOfBounds', () => {
  it('refuses a value below the minimum, naming the record and the value', () => {
    expect(outOfBounds(CPU, -2.733)).toBe('agents_heartbeat_cpu_ms = -2.733 ms is below its minimum of 0 ms: an impossible figure, not written');
  });

  it('refuses a value above the maximum', () => {
    expect(outOfBounds(SHARE, 100.5)).toMatch(/^metrics_flow_cpu_share_pct = 100.5 % is above its maximum of 100 %/);
  });

  it('refuses what is not a finite number where bounds are declared (a window with no calls divides by zero)', () => {
    expect(outOfBounds(CPU, Number.NaN)).toMatch(/is not a finite number/);
    expect(outOfBounds(CPU, Number.POSITIVE_INFINITY)).toMatch(/is not a finite number/);
  });

  it('takes the bounds themselves and anything between', () => {
    expect([0, 0.12, 1e6].map((value) => outOfBounds(CPU, value))).toEqual([undefined, undefined, undefined]);
    expect([0, 100].map((value) => outOfBounds(SHARE, value))).toEqual([undefined, undefined]);
  });

  it('lets a record without bounds be negative: an overhead within noise', () => {
    expect(outOfBounds(OVERHEAD, -1.4)).toBeUndefined();
  });
});

describe('withinBounds', () => {
  it('keeps the sound measurements and gives a reason for each refused one', () => {
    const specs = new Map([CPU, SHARE, OVERHEAD].map((spec) => [spec.name, spec]));
    const { kept, refused } = withinBounds(specs, [
      { name: CPU.name, value: -2.733 },
      { name: SHARE.name, value: 3.2 },
      { name: OVERHEAD.name, value: -0.4 },
    ]);
    expect(kept.map((measurement) => measurement.name)).toEqual([SHARE.name, OVERHEAD.name]);
    expect(refused).toEqual([expect.stringContaining('agents_heartbeat_cpu_ms = -2.733 ms')]);
  });
});
