import type { EventFilter, ReadAllOptions } from '@ledger/eventstore';
import { InMemoryEventStore, testEvent } from '../testing';
import { SharedLogTail } from './shared-log-tail';

/** The in-memory store, counting the reads it is asked for and where they start. */
function countingStore(store: InMemoryEventStore) {
  const reads: number[] = [];
  return {
    reads,
    readAll: (options: ReadAllOptions) => {
      reads.push(options.after ?? 0);
      return store.readAll(options);
    },
    waitForAppend: (timeoutMs: number, signal?: AbortSignal) => store.waitForAppend(timeoutMs, signal),
    headPosition: () => store.headPosition(),
  };
}

const append = (store: InMemoryEventStore, stream: string, type: string) => store.append(stream, [testEvent(type)], { expected: 'any' });

describe('SharedLogTail', () => {
  it('reads an append once for every reader at the live edge, and answers each as the store would', async () => {
    const store = new InMemoryEventStore();
    const counting = countingStore(store);
    const tail = new SharedLogTail(counting);
    await tail.readAll({ after: 0, max: 100 });
    await append(store, 'device-1', 'test.A');
    await append(store, 'quota-1', 'test.B');
    counting.reads.length = 0;
    const filters: Array<EventFilter | undefined> = [undefined, { categories: ['device'] }, { types: ['test.B'] }, { categories: ['arq'] }];
    const served = await Promise.all(filters.map((filter) => tail.readAll({ after: 0, max: 100, filter })));
    expect(counting.reads).toEqual([0]);
    const direct = await Promise.all(filters.map((filter) => store.readAll({ after: 0, max: 100, filter })));
    expect(served).toEqual(direct);
  });

  it('scans at most max positions, as the store does, whatever the filter keeps', async () => {
    const store = new InMemoryEventStore();
    const tail = new SharedLogTail(countingStore(store));
    for (let n = 0; n < 6; n++) await append(store, n % 2 === 0 ? 'device-1' : 'quota-1', 'test.A');
    await tail.readAll({ after: 0, max: 100 });
    for (const after of [0, 1, 4, 6]) {
      for (const max of [1, 2, 5]) {
        const options = { after, max, filter: { categories: ['quota'] } };
        expect(await tail.readAll(options)).toEqual(await store.readAll(options));
      }
    }
  });

  it('leaves a reader behind the window to the store, and follows a reader that arrives past its end', async () => {
    const store = new InMemoryEventStore();
    const counting = countingStore(store);
    const tail = new SharedLogTail(counting, 2);
    for (let n = 0; n < 5; n++) await append(store, 'device-1', 'test.A');
    await tail.readAll({ after: 3, max: 100 });
    counting.reads.length = 0;
    // Behind the window: the store is asked, with the reader's own filter.
    expect((await tail.readAll({ after: 1, max: 100 })).position).toBe(5);
    expect(counting.reads).toEqual([1]);
    await append(store, 'device-1', 'test.A');
    await append(store, 'device-1', 'test.A');
    counting.reads.length = 0;
    // Past the window's end (it caught up on its own): the window starts over there.
    const ahead = await tail.readAll({ after: 6, max: 100 });
    expect(ahead).toEqual({ events: [expect.objectContaining({ position: 7 })], position: 7 });
    expect(counting.reads).toEqual([6]);
    // A lookup by position never moves the window: 6 is no longer in it, so the store answers.
    expect((await tail.lookups.readAll({ after: 5, max: 1 })).events[0].position).toBe(6);
    expect(counting.reads).toEqual([6, 5]);
    expect((await tail.lookups.readAll({ after: 6, max: 1 })).events[0].position).toBe(7);
    expect(counting.reads).toEqual([6, 5]);
  });

  it('keeps only its capacity behind the edge, so a slow reader falls back to the store', async () => {
    const store = new InMemoryEventStore();
    const counting = countingStore(store);
    const tail = new SharedLogTail(counting, 2);
    await tail.readAll({ after: 0, max: 100 });
    for (let n = 0; n < 3; n++) {
      await append(store, 'device-1', 'test.A');
      await tail.readAll({ after: n, max: 100 });
    }
    counting.reads.length = 0;
    expect((await tail.readAll({ after: 1, max: 100 })).events.map((event) => event.position)).toEqual([2, 3]);
    expect(counting.reads).toEqual([]);
    expect((await tail.readAll({ after: 0, max: 100 })).events.map((event) => event.position)).toEqual([1, 2, 3]);
    expect(counting.reads).toEqual([0]);
  });
});
