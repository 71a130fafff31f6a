import type { ReadAllOptions } from '@ledger/eventstore';
import { InMemoryEventStore, testEvent } from '../testing';
import { ReadAhead } from './read-ahead';

/** The in-memory store, counting the reads it is asked for and where they start. */
function countingStore(store: InMemoryEventStore) {
  const reads: number[] = [];
  return {
    reads,
    readAll: (options: ReadAllOptions) => {
      reads.push(options.after ?? 0);
      return store.readAll(options);
    },
  };
}

describe('ReadAhead', () => {
  const store = new InMemoryEventStore();

  beforeAll(async () => {
    for (let n = 0; n < 5; n++) await store.append(`thing-${n}`, [testEvent('test.Counted', { n })], { expected: 'any' });
  });

  it('starts the next read when a batch comes back full, and serves it to the loop that asks there', async () => {
    const counting = countingStore(store);
    const reads = new ReadAhead(counting, 2, undefined);
    const first = await reads.read(0);
    expect(first.events.map((event) => event.position)).toEqual([1, 2]);
    expect(counting.reads).toEqual([0, 2]);
    const second = await reads.read(2);
    expect(second.events.map((event) => event.position)).toEqual([3, 4]);
    const third = await reads.read(4);
    expect(third.events.map((event) => event.position)).toEqual([5]);
    // A short batch means the loop is caught up: nothing is read ahead of it.
    expect(counting.reads).toEqual([0, 2, 4]);
  });

  it('drops a read ahead the loop does not take (a retry from an earlier position, or forget)', async () => {
    const counting = countingStore(store);
    const reads = new ReadAhead(counting, 2, undefined);
    await reads.read(0);
    const retried = await reads.read(0);
    expect(retried.events.map((event) => event.position)).toEqual([1, 2]);
    reads.forget();
    await reads.read(2);
    expect(counting.reads).toEqual([0, 2, 0, 2, 2, 4]);
  });

  it('fails the read that takes a failed read ahead, and no other', async () => {
    let calls = 0;
    const failingSecond = {
      readAll: (options: ReadAllOptions) => (++calls === 2 ? Promise.reject(new Error('store went away')) : store.readAll(options)),
    };
    const reads = new ReadAhead(failingSecond, 2, undefined);
    await reads.read(0);
    await expect(reads.read(2)).rejects.toThrow('store went away');
    expect((await reads.read(2)).events.map((event) => event.position)).toEqual([3, 4]);
  });
});
