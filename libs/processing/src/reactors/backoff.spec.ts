import { backoffDelay } from './backoff';

describe('backoffDelay', () => {
  const policy = { initialMs: 100, maxMs: 5_000 };

  it('doubles the ceiling per attempt up to the maximum', () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 7, 100].map((attempt) => backoffDelay(attempt, policy, () => 1));
    expect(ceilings).toEqual([100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000]);
  });

  it('draws between half the ceiling and the ceiling', () => {
    expect(backoffDelay(3, policy, () => 0)).toBe(200);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(300);
    const drawn = new Set(Array.from({ length: 50 }, () => backoffDelay(5, policy)));
    expect(drawn.size).toBeGreaterThan(1);
    for (const delay of drawn) expect(delay >= 800 && delay <= 1_600).toBe(true);
  });
});
