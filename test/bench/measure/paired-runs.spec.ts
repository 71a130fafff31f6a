import { alternatePairs, medianOverheadPct } from './paired-runs';

describe('alternatePairs', () => {
  it('alternates which half of a pair runs first', async () => {
    const order: boolean[] = [];
    const pairs = await alternatePairs(3, async (on) => {
      order.push(on);
      return order.length;
    });
    expect(order).toEqual([true, false, false, true, true, false]);
    expect(pairs).toEqual([
      { on: 1, off: 2 },
      { on: 4, off: 3 },
      { on: 5, off: 6 },
    ]);
  });
});

describe('medianOverheadPct', () => {
  it('is the median of the pairs: a rate lost, or a cost added', () => {
    const rates = [
      { on: 90, off: 100 },
      { on: 50, off: 100 }, // one run spoiled by the machine
      { on: 98, off: 100 },
    ];
    expect(medianOverheadPct(rates, (rate) => rate, 'rate')).toBe(10);
    const costs = [
      { on: 2.2, off: 2 },
      { on: 2.1, off: 2 },
    ];
    expect(medianOverheadPct(costs, (cost) => cost, 'cost')).toBeCloseTo(7.5);
  });
});
