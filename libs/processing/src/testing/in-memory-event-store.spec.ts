import { ChainVerifier, InvalidAppendError, WrongExpectedVersionError } from '@ledger/eventstore';
import { InMemoryEventStore } from './in-memory-event-store';
import { testEvent } from './test-events';

describe('InMemoryEventStore', () => {
  it('appends with expected versions and reads streams', async () => {
    const store = new InMemoryEventStore();
    await store.append('device-1', [testEvent('a.One'), testEvent('a.Two')], { expected: 'no_stream' });
    await expect(store.append('device-1', [testEvent('a.One')], { expected: 1 })).rejects.toBeInstanceOf(WrongExpectedVersionError);
    const result = await store.append('device-1', [testEvent('a.Three')], { expected: 2 });
    expect(result).toEqual({ stream: 'device-1', version: 3, position: 3 });
    expect((await store.readStream('device-1', { fromVersion: 2 })).map((event) => event.type)).toEqual(['a.Two', 'a.Three']);
  });

  it('appends to several streams all or nothing, waking waiters once', async () => {
    const store = new InMemoryEventStore();
    await store.append('device-1', [testEvent('a.One')], { expected: 'no_stream' });
    const stale = store.appendMany([
      { stream: 'arq-1', events: [testEvent('a.Two')], expected: 'no_stream' },
      { stream: 'device-1', events: [testEvent('a.Two')], expected: 0 },
    ]);
    await expect(stale).rejects.toMatchObject({ stream: 'device-1', expected: 0, actual: 1 });
    expect(await store.headPosition()).toBe(1);
    const woken = store.waitForAppend(60_000);
    const results = await store.appendMany([
      { stream: 'arq-1', events: [testEvent('a.Two')], expected: 'no_stream' },
      { stream: 'device-1', events: [testEvent('a.Two'), testEvent('a.Three')], expected: 1 },
    ]);
    await woken;
    expect(results).toEqual([
      { stream: 'arq-1', version: 1, position: 2 },
      { stream: 'device-1', version: 3, position: 4 },
    ]);
    await expect(store.appendMany([{ stream: 'arq-1', events: [testEvent('a.Two')], expected: 'any' }, { stream: 'arq-1', events: [testEvent('a.Two')], expected: 'any' }])).rejects.toBeInstanceOf(InvalidAppendError);
  });

  it('filters readAll by type and category and reports the scanned position', async () => {
    const store = new InMemoryEventStore();
    await store.append('device-1', [testEvent('a.One'), testEvent('a.Two')], { expected: 'any' });
    await store.append('host-1', [testEvent('a.One')], { expected: 'any' });
    const read = await store.readAll({ after: 0, max: 2, filter: { types: ['a.Two'] } });
    expect(read.events.map((event) => event.position)).toEqual([2]);
    expect(read.position).toBe(2);
    const hosts = await store.readAll({ after: 0, filter: { categories: ['host'], types: ['a.One'] } });
    expect(hosts.events.map((event) => event.stream)).toEqual(['host-1']);
    expect(hosts.position).toBe(3);
    expect(await store.readAll({ after: 3 })).toEqual({ events: [], position: 3 });
  });

  it('records a verifiable hash chain', async () => {
    const store = new InMemoryEventStore();
    await store.append('device-1', [testEvent('a.One', { x: 1 })], { expected: 'any' });
    await store.append('device-2', [testEvent('a.Two', { y: 2 })], { expected: 'any' });
    const verifier = new ChainVerifier();
    for (const event of (await store.readAll()).events) verifier.check(event);
    expect(verifier.verdict()).toMatchObject({ ok: true, checked: 2 });
  });

  it('wakes waitForAppend at the next append, on abort, or at the timeout', async () => {
    const store = new InMemoryEventStore();
    const woken = store.waitForAppend(60_000);
    await store.append('device-1', [testEvent('a.One')], { expected: 'any' });
    await woken;
    const abort = new AbortController();
    const aborted = store.waitForAppend(60_000, abort.signal);
    abort.abort();
    await aborted;
    await store.waitForAppend(1);
  });
});
