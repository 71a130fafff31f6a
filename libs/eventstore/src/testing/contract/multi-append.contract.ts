import { uuidV7 } from '@ledger/kernel';
import { InvalidAppendError } from '../../errors/invalid-append.error';
import { MultiStreamAppendUnsupportedError } from '../../errors/multi-stream-append-unsupported.error';
import { WrongExpectedVersionError } from '../../errors/wrong-expected-version.error';
import type { RecordedEvent } from '../../envelope';
import type { EventStore, StreamAppend } from '../../event-store.port';
import { ChainVerifier } from '../../hash-chain/chain-verifier';
import type { ContractContext } from './contract-context';
import { newEvent, positionsAfter, positionsOf, probe, readAllAfter, take, uniqueStream, untilVisible } from './fixtures';

const events = (count: number) => Array.from({ length: count }, (_, index) => newEvent('test.Decided', { index }));

export function multiAppendContract(context: ContractContext, multiStreamAppend: boolean): void {
  /** A fresh stream holding `count` events. */
  async function streamWith(count: number): Promise<string> {
    const stream = uniqueStream();
    if (count > 0) await context.store.append(stream, events(count), { expected: 'no_stream' });
    return stream;
  }

  it(`says whether it takes several streams (${multiStreamAppend})`, () => {
    expect(context.store.multiStreamAppend).toBe(multiStreamAppend);
  });

  it('appends to one stream as append does', async () => {
    const { store } = context;
    const stream = await streamWith(1);
    const base = await probe(store);
    expect(await store.appendMany([{ stream, events: events(2), expected: 1 }])).toEqual([{ stream, version: 3, position: base + 2 }]);
    await expect(store.appendMany([{ stream, events: events(1), expected: 1 }])).rejects.toMatchObject({ code: 'EVENTSTORE.WRONG_EXPECTED_VERSION', stream, actual: 3 });
  });

  it.each<[string, (streams: string[]) => StreamAppend[]]>([
    ['no streams', () => []],
    ['a stream named twice', ([a, b]) => [{ stream: a, events: events(1), expected: 'any' }, { stream: b, events: events(1), expected: 'any' }, { stream: a, events: events(1), expected: 'any' }]],
    ['a stream without events', ([a, b]) => [{ stream: a, events: events(1), expected: 'any' }, { stream: b, events: [], expected: 'any' }]],
    ['a bad stream name', ([a]) => [{ stream: a, events: events(1), expected: 'any' }, { stream: 'nodash', events: events(1), expected: 'any' }]],
    [
      'one event id in two streams',
      ([a, b]) => {
        const id = uuidV7();
        return [{ stream: a, events: [newEvent('test.Decided', {}, { id })], expected: 'any' }, { stream: b, events: [newEvent('test.Decided', {}, { id })], expected: 'any' }];
      },
    ],
  ])('refuses %s as an invalid append, appending nothing', async (_, appends) => {
    const { store } = context;
    const streams = [uniqueStream(), uniqueStream()];
    const before = await probe(store);
    await expect(store.appendMany(appends(streams))).rejects.toBeInstanceOf(InvalidAppendError);
    expect(await probe(store)).toBe(before + 1);
  });

  if (!multiStreamAppend) {
    it('refuses several streams as unsupported, appending nothing', async () => {
      const { store } = context;
      const [a, b] = [uniqueStream(), uniqueStream()];
      const before = await probe(store);
      const error = await store.appendMany([{ stream: a, events: events(1), expected: 'no_stream' }, { stream: b, events: events(1), expected: 'no_stream' }]).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(MultiStreamAppendUnsupportedError);
      expect(error).toMatchObject({ code: 'EVENTSTORE.MULTI_STREAM_UNSUPPORTED', facts: { streams: [a, b] } });
      expect(await probe(store)).toBe(before + 1);
    });
    return;
  }

  it('appends to several streams in one commit, positions consecutive in the order given', async () => {
    const { store } = context;
    const [a, b, c] = [await streamWith(1), uniqueStream(), uniqueStream()];
    const base = await probe(store);
    const results = await store.appendMany([
      { stream: a, events: events(2), expected: 1 },
      { stream: b, events: events(1), expected: 'no_stream' },
      { stream: c, events: events(2), expected: 'any' },
    ]);
    expect(results).toEqual([
      { stream: a, version: 3, position: base + 2 },
      { stream: b, version: 1, position: base + 3 },
      { stream: c, version: 2, position: base + 5 },
    ]);
    await untilVisible(store, base + 5);
    const appended = await readAllAfter(store, base);
    expect(appended.map(({ stream, version, position }) => ({ stream, version, position }))).toEqual([
      { stream: a, version: 2, position: base + 1 },
      { stream: a, version: 3, position: base + 2 },
      { stream: b, version: 1, position: base + 3 },
      { stream: c, version: 1, position: base + 4 },
      { stream: c, version: 2, position: base + 5 },
    ]);
  });

  it.each([0, 1, 2])('rejects the whole call when stream %i of three is stale, naming it, appending nothing', async (stale) => {
    const { store } = context;
    const streams = [await streamWith(1), await streamWith(2), uniqueStream()];
    const expected = [1, 2, 'no_stream'] as const;
    const appends = streams.map((stream, index) => ({ stream, events: events(2), expected: index === stale ? 7 : expected[index] }));
    const before = await probe(store);
    const error = await store.appendMany(appends).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect((error as WrongExpectedVersionError).facts).toEqual({ stream: streams[stale], expected: 7, actual: [1, 2, 0][stale] });
    expect(await Promise.all(streams.map(async (stream) => (await store.readStream(stream)).length))).toEqual([1, 2, 0]);
    expect(await probe(store)).toBe(before + 1);
  });

  it('refuses an event id already recorded in any of its streams, appending nothing', async () => {
    const { store } = context;
    const id = uuidV7();
    const before = (await store.append(uniqueStream(), [newEvent('test.Decided', {}, { id })], { expected: 'no_stream' })).position;
    const [a, b] = [uniqueStream(), uniqueStream()];
    const error = await store
      .appendMany([{ stream: a, events: events(1), expected: 'no_stream' }, { stream: b, events: [newEvent('test.Decided', {}, { id })], expected: 'no_stream' }])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidAppendError);
    expect(error).toMatchObject({ facts: { stream: b, id } });
    expect(await store.readStream(a)).toEqual([]);
    expect(await probe(store)).toBe(before + 1);
  });

  it('lets exactly one of several decisions over overlapping streams with the same expected versions win', async () => {
    const { store } = context;
    const [x, y, z] = [await streamWith(1), await streamWith(1), await streamWith(1)];
    // Any two of these pairs share a stream: at most one decision can hold.
    const pairs = [[x, y], [y, z], [z, x], [y, x], [z, y], [x, z]];
    const attempts = await Promise.allSettled(
      pairs.map((pair, writer) => store.appendMany(pair.map((stream) => ({ stream, events: [newEvent('test.Decided', { writer })], expected: 1 })))),
    );
    const won = attempts.flatMap((attempt, writer) => (attempt.status === 'fulfilled' ? [writer] : []));
    expect(won).toHaveLength(1);
    for (const attempt of attempts) if (attempt.status === 'rejected') expect(attempt.reason).toBeInstanceOf(WrongExpectedVersionError);
    for (const stream of [x, y, z]) {
      const recorded = await store.readStream(stream);
      expect(recorded.slice(1).map((event) => event.data)).toEqual(pairs[won[0]].includes(stream) ? [{ writer: won[0] }] : []);
    }
  });

  it('keeps the hash chain whole across multi-stream appends', async () => {
    const { store } = context;
    const [a, b] = [await streamWith(1), uniqueStream()];
    await store.appendMany([{ stream: b, events: events(2), expected: 'no_stream' }, { stream: a, events: events(1), expected: 1 }]);
    const last = await store.appendMany([{ stream: a, events: events(1), expected: 2 }, { stream: b, events: events(3), expected: 2 }]);
    await untilVisible(store, last[1].position);
    const verifier = new ChainVerifier();
    const log = await readAllAfter(store, 0, undefined, 1000);
    for (const event of log) verifier.check(event);
    expect(verifier.verdict()).toMatchObject({ ok: true, checked: log.length });
  });

  it('shows a subscriber the whole multi-stream append in one delivery', async () => {
    const { store } = context;
    const base = await probe(store);
    const subscription = store.subscribe({ after: base });
    const iterator = subscription[Symbol.asyncIterator]();
    try {
      const delivered = iterator.next();
      const streams = [uniqueStream(), uniqueStream(), uniqueStream()];
      await store.appendMany(streams.map((stream) => ({ stream, events: events(2), expected: 'no_stream' as const })));
      const batch: RecordedEvent[] = (await delivered).value ?? [];
      expect(positionsOf(batch)).toEqual(positionsAfter(base, 6));
      expect(batch.map((event) => event.stream)).toEqual(streams.flatMap((stream) => [stream, stream]));
      const next = take(iterator, 1);
      await store.append(streams[0], events(1), { expected: 2 });
      expect(positionsOf(await next)).toEqual([base + 7]);
    } finally {
      await subscription.close();
    }
  });

  it('commits beside single appends made at the same moment, failing only the stale one', () => appendManyBesideSingleAppends(context.store));
}

/**
 * Two appends and two appendMany calls (one of them stale) made in one turn
 * of the event loop, as a group commit gathers them: only the stale call
 * fails, and all of it. Two appends of setup come first.
 */
export async function appendManyBesideSingleAppends(store: EventStore): Promise<void> {
  const stale = uniqueStream();
  await store.append(stale, events(1), { expected: 'no_stream' });
  const [single1, single2, a, b, c] = [uniqueStream(), uniqueStream(), uniqueStream(), uniqueStream(), uniqueStream()];
  const base = await probe(store);
  const [first, refused, second, decided] = await Promise.allSettled([
    store.append(single1, events(1), { expected: 'no_stream' }),
    store.appendMany([{ stream: a, events: events(1), expected: 'no_stream' }, { stream: stale, events: events(1), expected: 0 }]),
    store.append(single2, events(2), { expected: 'no_stream' }),
    store.appendMany([{ stream: b, events: events(1), expected: 'no_stream' }, { stream: c, events: events(2), expected: 'no_stream' }]),
  ]);
  expect(refused).toMatchObject({ status: 'rejected', reason: { code: 'EVENTSTORE.WRONG_EXPECTED_VERSION', stream: stale, actual: 1 } });
  expect([first, second, decided].map((settled) => settled.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
  await untilVisible(store, base + 6);
  const appended = await readAllAfter(store, base);
  expect(positionsOf(appended)).toEqual(positionsAfter(base, 6));
  expect(new Set(appended.map((event) => event.stream))).toEqual(new Set([single1, single2, b, c]));
  expect(await store.readStream(a)).toEqual([]);
}
