import { BACKOFF_CAP_MS, backoffMs } from './backoff';

describe('backoffMs', () => {
  it('doubles from a second and stops at a minute', () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7, 8, 100].map((failures) => backoffMs(failures, middle))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, BACKOFF_CAP_MS, BACKOFF_CAP_MS, BACKOFF_CAP_MS,
    ]);
  });

  it('spreads retries by ±20 % but never past the cap', () => {
    expect(backoffMs(3, () => 0)).toBe(3_200);
    expect(backoffMs(3, () => 1)).toBe(4_800);
    expect(backoffMs(7, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(backoffMs(0, () => 0.5)).toBe(1_000);
  });
});
