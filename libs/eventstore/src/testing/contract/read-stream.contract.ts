import type { ContractContext } from './contract-context';
import { newEvent, uniqueStream } from './fixtures';

export function readStreamContract(context: ContractContext): void {
  async function streamOfFive(): Promise<string> {
    const stream = uniqueStream();
    const events = [1, 2, 3, 4, 5].map((n) => newEvent('test.Counted', { n }));
    await context.store.append(stream, events, { expected: 'no_stream' });
    return stream;
  }

  it('reads an absent stream as []', async () => {
    expect(await context.store.readStream(uniqueStream())).toEqual([]);
  });

  it('reads a stream in version order, with the envelope of each event', async () => {
    const stream = await streamOfFive();
    const events = await context.store.readStream(stream);
    expect(events.map((event) => [event.stream, event.version, event.data])).toEqual([
      [stream, 1, { n: 1 }],
      [stream, 2, { n: 2 }],
      [stream, 3, { n: 3 }],
      [stream, 4, { n: 4 }],
      [stream, 5, { n: 5 }],
    ]);
    const positions = events.map((event) => event.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it.each([
    [{ fromVersion: 3 }, [3, 4, 5]],
    [{ max: 2 }, [1, 2]],
    [{ fromVersion: 2, max: 2 }, [2, 3]],
    [{ fromVersion: 5, max: 10 }, [5]],
    [{ fromVersion: 6 }, []],
    [{ max: 0 }, []],
  ])('reads a slice %j', async (options, versions) => {
    const stream = await streamOfFive();
    const events = await context.store.readStream(stream, options);
    expect(events.map((event) => event.version)).toEqual(versions);
  });

  it('keeps streams apart', async () => {
    const first = await streamOfFive();
    const second = uniqueStream();
    await context.store.append(second, [newEvent()], { expected: 'no_stream' });
    expect(await context.store.readStream(first)).toHaveLength(5);
    expect((await context.store.readStream(second)).map((event) => event.stream)).toEqual([second]);
  });
}
