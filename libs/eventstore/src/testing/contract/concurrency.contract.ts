import { uuidV7 } from '@ledger/kernel';
import type { RecordedEvent } from '../../envelope';
import { WrongExpectedVersionError } from '../../errors/wrong-expected-version.error';
import type { ExpectedVersion } from '../../expected-version';
import type { ContractContext } from './contract-context';
import { newEvent, probe, uniqueStream } from './fixtures';

const WRITERS = 8;
const APPENDS_PER_WRITER = 20;
/** Append sizes cycle through 1, 2 and 3 events, so batches of several events interleave too. */
const sizeOf = (append: number): number => (append % 3) + 1;
const EVENTS_PER_WRITER = Array.from({ length: APPENDS_PER_WRITER }, (_, append) => sizeOf(append)).reduce((a, b) => a + b, 0);

export function concurrencyContract(context: ContractContext): void {
  it.each<[string, number, ExpectedVersion]>([
    ['a version', 1, 1],
    ['no_stream', 0, 'no_stream'],
  ])('lets exactly one of several writers expecting the same %s win', async (_, existing, expected) => {
    const { store } = context;
    const stream = uniqueStream();
    if (existing > 0) await store.append(stream, [newEvent()], { expected: 'no_stream' });
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, (__, writer) => store.append(stream, [newEvent('test.Raced', { writer })], { expected })),
    );
    const won = attempts.filter((attempt) => attempt.status === 'fulfilled');
    const lost = attempts.flatMap((attempt) => (attempt.status === 'rejected' ? [attempt.reason] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(7);
    for (const error of lost) {
      expect(error).toBeInstanceOf(WrongExpectedVersionError);
      expect(error).toMatchObject({ stream, actual: existing + 1 });
    }
    expect(await store.readStream(stream)).toHaveLength(existing + 1);
  });

  it(`shows a polling reader every event of ${WRITERS} concurrent writers exactly once, in gap-free order`, async () => {
    const { store } = context;
    const base = await probe(store);
    const total = WRITERS * EVENTS_PER_WRITER;

    const writer = async (): Promise<string[]> => {
      const stream = uniqueStream('writer');
      const acknowledged: string[] = [];
      let version = 0;
      for (let append = 0; append < APPENDS_PER_WRITER; append++) {
        const events = Array.from({ length: sizeOf(append) }, () => newEvent('test.Written', { append }, { id: uuidV7() }));
        const result = await store.append(stream, events, { expected: version });
        version = result.version;
        acknowledged.push(...events.map((event) => event.id as string));
      }
      return acknowledged;
    };

    const reader = async (): Promise<RecordedEvent[]> => {
      const seen: RecordedEvent[] = [];
      let after = base;
      while (seen.length < total) {
        const page = await store.readAll({ after, max: 7 });
        for (const event of page.events) {
          // Each event must be the very next position: nothing skipped, nothing repeated.
          expect(event.position).toBe(base + seen.length + 1);
          seen.push(event);
        }
        expect(page.position).toBe(page.events.length > 0 ? page.events[page.events.length - 1].position : after);
        after = page.position;
        if (page.events.length === 0) await store.waitForAppend(200);
      }
      return seen;
    };

    const [seen, ...acknowledged] = await Promise.all([reader(), ...Array.from({ length: WRITERS }, writer)]);
    expect(seen.map((event) => event.id).sort()).toEqual(acknowledged.flat().sort());
    expect(await store.readAll({ after: base + total })).toEqual({ events: [], position: base + total });
  });
}
