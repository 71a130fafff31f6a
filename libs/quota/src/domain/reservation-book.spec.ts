import { ReservationBook } from './reservation-book';

describe('ReservationBook', () => {
  it('adds, replaces and removes without changing earlier books', () => {
    const one = ReservationBook.empty.with('arq-1', { FPGA: 1 });
    const two = one.with('arq-2', { PGPU: 1 });
    const replaced = two.with('arq-1', { FPGA: 2 });
    const removed = replaced.without('arq-2');
    expect([ReservationBook.empty.size, one.size, two.size, replaced.size, removed.size]).toEqual([0, 1, 2, 2, 1]);
    expect(one.get('arq-1')).toEqual({ FPGA: 1 });
    expect(two.get('arq-1')).toEqual({ FPGA: 1 });
    expect(replaced.get('arq-1')).toEqual({ FPGA: 2 });
    expect(removed.get('arq-2')).toBeUndefined();
    expect(two.get('arq-2')).toEqual({ PGPU: 1 });
    expect(removed.without('arq-9')).toBe(removed);
  });

  it('lists every entry by consumer id across buckets', () => {
    let book = ReservationBook.empty;
    const ids = Array.from({ length: 500 }, (_, i) => `0196b3c2-0000-7000-8000-${String(i).padStart(12, '0')}`);
    for (const id of [...ids].reverse()) book = book.with(id, { FPGA: 1 });
    expect(book.size).toBe(500);
    expect(book.entries().map(([id]) => id)).toEqual(ids);
  });
});
