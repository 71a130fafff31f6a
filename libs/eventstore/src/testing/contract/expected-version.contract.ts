import { uuidV7 } from '@ledger/kernel';
import { InvalidAppendError } from '../../errors/invalid-append.error';
import { WrongExpectedVersionError } from '../../errors/wrong-expected-version.error';
import type { ExpectedVersion } from '../../expected-version';
import type { NewEvent } from '../../envelope';
import type { ContractContext } from './contract-context';
import { metadata, newEvent, probe, uniqueStream } from './fixtures';

export function expectedVersionContract(context: ContractContext): void {
  async function streamWith(events: number): Promise<string> {
    const stream = uniqueStream();
    if (events > 0) {
      await context.store.append(stream, Array.from({ length: events }, () => newEvent()), { expected: 'no_stream' });
    }
    return stream;
  }

  it('appends to a new stream under no_stream, numbering versions from 1', async () => {
    const { store } = context;
    const base = await probe(store);
    const stream = uniqueStream();
    const result = await store.append(stream, [newEvent(), newEvent()], { expected: 'no_stream' });
    expect(result).toEqual({ stream, version: 2, position: base + 2 });
    expect((await store.readStream(stream)).map((event) => event.version)).toEqual([1, 2]);
  });

  it.each<[string, number, ExpectedVersion, number]>([
    ['version 0 on an absent stream', 0, 0, 1],
    ['the current version', 2, 2, 3],
    ['exists on a stream with events', 1, 'exists', 2],
    ['any on an absent stream', 0, 'any', 1],
    ['any on a stream with events', 3, 'any', 4],
  ])('appends when expecting %s', async (_, existing, expected, version) => {
    const stream = await streamWith(existing);
    const result = await context.store.append(stream, [newEvent()], { expected });
    expect(result.version).toBe(version);
    expect(await context.store.readStream(stream)).toHaveLength(version);
  });

  it.each<[string, number, ExpectedVersion]>([
    ['a version behind', 2, 1],
    ['a version ahead', 2, 5],
    ['a version on an absent stream', 0, 1],
    ['version 0 on a stream with events', 1, 0],
    ['no_stream on a stream with events', 1, 'no_stream'],
    ['exists on an absent stream', 0, 'exists'],
  ])('rejects %s with the facts, appending nothing', async (_, existing, expected) => {
    const { store } = context;
    const stream = await streamWith(existing);
    const before = await probe(store);
    const error = await store.append(stream, [newEvent(), newEvent()], { expected }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect(error).toMatchObject({ code: 'EVENTSTORE.WRONG_EXPECTED_VERSION', status: 409, stream, expected, actual: existing });
    expect((error as WrongExpectedVersionError).facts).toEqual({ stream, expected, actual: existing });
    expect(await store.readStream(stream)).toHaveLength(existing);
    expect(await probe(store)).toBe(before + 1);
  });

  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  it.each<[string, string, () => readonly NewEvent[], ExpectedVersion]>([
    ['no events', uniqueStream(), () => [], 'any'],
    ['a stream name without a dash', 'nodash', () => [newEvent()], 'any'],
    ['a stream name without a category', '-id', () => [newEvent()], 'any'],
    ['a stream name without an id', 'category-', () => [newEvent()], 'any'],
    ['an empty stream name', '', () => [newEvent()], 'any'],
    ['a negative expected version', uniqueStream(), () => [newEvent()], -1],
    ['a fractional expected version', uniqueStream(), () => [newEvent()], 1.5],
    ['an event without a type', uniqueStream(), () => [newEvent('')], 'any'],
    ['an event id that is not a UUID', uniqueStream(), () => [newEvent('test.Happened', {}, { id: 'event-1' })], 'any'],
    ['data with a BigInt', uniqueStream(), () => [newEvent('test.Happened', { size: BigInt(1) })], 'any'],
    ['cyclic data', uniqueStream(), () => [newEvent('test.Happened', cyclic)], 'any'],
    ['data that is undefined', uniqueStream(), () => [{ type: 'test.Happened', data: undefined, metadata: metadata() }], 'any'],
    ['data with a NUL character', uniqueStream(), () => [newEvent('test.Happened', { name: 'a\u0000b' })], 'any'],
    [
      'two events with one id',
      uniqueStream(),
      () => {
        const id = uuidV7();
        return [newEvent('test.Happened', {}, { id }), newEvent('test.Happened', {}, { id })];
      },
      'any',
    ],
  ])('refuses %s as an invalid append, appending nothing', async (_, stream, events, expected) => {
    const { store } = context;
    const before = await probe(store);
    await expect(store.append(stream, events(), { expected })).rejects.toBeInstanceOf(InvalidAppendError);
    expect(await probe(store)).toBe(before + 1);
  });

  it('refuses an event id that is already recorded, appending nothing', async () => {
    const { store } = context;
    const id = uuidV7();
    const before = (await store.append(uniqueStream(), [newEvent('test.Happened', {}, { id })], { expected: 'no_stream' })).position;
    const stream = uniqueStream();
    const error = await store.append(stream, [newEvent(), newEvent('test.Happened', {}, { id })], { expected: 'any' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidAppendError);
    expect(error).toMatchObject({ code: 'EVENTSTORE.INVALID_APPEND', facts: { id } });
    expect(await store.readStream(stream)).toEqual([]);
    expect(await probe(store)).toBe(before + 1);
  });
}
