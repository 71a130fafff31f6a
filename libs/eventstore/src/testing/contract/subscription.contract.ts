import type { ContractContext } from './contract-context';
import { newEvent, positionsAfter, positionsOf, probe, take, uniqueStream } from './fixtures';

export function subscriptionContract(context: ContractContext): void {
  it('catches up with stored events, then delivers new ones live', async () => {
    const { store } = context;
    const base = await probe(store);
    const stream = uniqueStream();
    await store.append(stream, [newEvent(), newEvent(), newEvent()], { expected: 'no_stream' });
    const subscription = store.subscribe({ after: base, batchSize: 2 });
    const iterator = subscription[Symbol.asyncIterator]();
    try {
      expect(positionsOf(await take(iterator, 3))).toEqual(positionsAfter(base, 3));
      const live = take(iterator, 2);
      await store.append(stream, [newEvent(), newEvent()], { expected: 3 });
      expect(positionsOf(await live)).toEqual([base + 4, base + 5]);
    } finally {
      await subscription.close();
    }
  });

  it('resumes from a checkpoint with exactly the events after it', async () => {
    const { store } = context;
    const base = await probe(store);
    const stream = uniqueStream();
    await store.append(stream, [1, 2, 3, 4, 5].map((n) => newEvent('test.Counted', { n })), { expected: 'no_stream' });
    const subscription = store.subscribe({ after: base + 2 });
    const iterator = subscription[Symbol.asyncIterator]();
    try {
      const rest = await take(iterator, 3);
      expect(rest.map((event) => event.data)).toEqual([{ n: 3 }, { n: 4 }, { n: 5 }]);
      // Nothing else is pending: the next delivery is the next append.
      const next = take(iterator, 1);
      await store.append(stream, [newEvent('test.Counted', { n: 6 })], { expected: 5 });
      expect((await next).map((event) => event.data)).toEqual([{ n: 6 }]);
    } finally {
      await subscription.close();
    }
  });

  it('delivers only what its filter selects', async () => {
    const { store } = context;
    const base = await probe(store);
    const stream = uniqueStream();
    await store.append(stream, [newEvent('test.Skipped'), newEvent('test.Wanted'), newEvent('test.Skipped')], { expected: 'no_stream' });
    const subscription = store.subscribe({ after: base, filter: { types: ['test.Wanted'] } });
    const iterator = subscription[Symbol.asyncIterator]();
    try {
      expect(positionsOf(await take(iterator, 1))).toEqual([base + 2]);
      const next = take(iterator, 1);
      await store.append(stream, [newEvent('test.Skipped'), newEvent('test.Wanted')], { expected: 3 });
      expect(positionsOf(await next)).toEqual([base + 5]);
    } finally {
      await subscription.close();
    }
  });

  it('ends when closed', async () => {
    const { store } = context;
    const subscription = store.subscribe({ after: await probe(store) });
    const iterator = subscription[Symbol.asyncIterator]();
    const pending = iterator.next();
    await subscription.close();
    expect(await pending).toEqual({ done: true, value: undefined });
  });
}
