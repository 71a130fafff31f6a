import { type Decider, type DomainEvent, ValidationError } from '@ledger/kernel';
import { contractActor } from '@ledger/eventstore/testing';
import { openSqliteEventStore } from '../adapters/sqlite/open-sqlite-event-store';
import type { SqliteEventStore } from '../adapters/sqlite/sqlite-event-store';
import { AggregateCache } from './aggregate-cache';
import type { CommandContext } from './command-context';
import { type AppendedResult, deciderCommandHandler } from './decider-command-handler';
import { handleMultiStreamCommand } from './handle-multi-stream-command';
import { StreamLocks } from './stream-locks';

type Added = DomainEvent<'test.Added', { amount: number }>;
interface Add {
  readonly counter: string;
  readonly amount: number;
}

/** Adds a positive amount; adding nothing is nothing to do. */
const counter: Decider<Add, { total: number }, Added> = {
  decide: (command) => {
    if (command.amount < 0) throw new ValidationError('TEST.NEGATIVE', 'amounts are positive');
    return command.amount === 0 ? [] : [{ type: 'test.Added', data: { amount: command.amount } }];
  },
  evolve: (state, event) => ({ total: state.total + event.data.amount }),
  initialState: () => ({ total: 0 }),
};
const streamOf = (command: Add) => {
  if (!/^[a-z]+$/.test(command.counter)) throw new ValidationError('TEST.BAD_COUNTER', 'counter names are lowercase letters');
  return `counter-${command.counter}`;
};
const context: CommandContext = { actor: contractActor, correlationId: 'request-1' };

describe('deciderCommandHandler', () => {
  let store: SqliteEventStore;

  beforeEach(async () => {
    store = await openSqliteEventStore({ file: ':memory:' });
  });

  afterEach(async () => {
    await store.close();
  });

  it("decides on the command's stream, appends with the schema versions and the context, and keeps the state in the cache", async () => {
    const cache = new AggregateCache<{ total: number }>();
    const counters = deciderCommandHandler(store, { decider: counter, streamOf, cache, schemaVersions: { 'test.Added': 2 } });
    await counters.run({ counter: 'a', amount: 2 }, context);
    const result = await counters.run({ counter: 'a', amount: 3 }, context);
    expect(result).toMatchObject({ appended: 1, version: 2, position: 2, state: { total: 5 }, events: [{ type: 'test.Added', data: { amount: 3 } }] });
    expect(cache.get('counter-a')).toEqual({ state: { total: 5 }, version: 2 });
    const [first] = await store.readStream('counter-a');
    expect(first.metadata).toMatchObject({ correlationId: 'request-1', causationId: 'request-1', schemaVersion: 2 });
  });

  it('refuses a command whose stream cannot be named, and a refused decision, appending nothing', async () => {
    const counters = deciderCommandHandler(store, { decider: counter, streamOf });
    await expect(counters.run({ counter: 'A/1', amount: 1 }, context)).rejects.toMatchObject({ code: 'TEST.BAD_COUNTER' });
    await expect(counters.run({ counter: 'a', amount: -1 }, context)).rejects.toMatchObject({ code: 'TEST.NEGATIVE' });
    expect(await store.headPosition()).toBe(0);
  });

  it('appends with the context the stream gives, and runs the after-append step only when something was appended', async () => {
    const appended: [AppendedResult<{ total: number }>, CommandContext][] = [];
    const counters = deciderCommandHandler(store, {
      decider: counter,
      streamOf,
      contextOf: async (command, caller) => ({ ...caller, correlationId: `${command.counter}-conversation`, causationId: caller.correlationId }),
      afterAppend: (result, used) => appended.push([result, used]),
    });
    await counters.run({ counter: 'a', amount: 0 }, context);
    expect(appended).toEqual([]);
    await counters.run({ counter: 'a', amount: 4 }, context);
    expect(appended).toEqual([[expect.objectContaining({ position: 1, state: { total: 4 } }), { ...context, correlationId: 'a-conversation', causationId: 'request-1' }]]);
    const [event] = await store.readStream('counter-a');
    expect(event.metadata).toMatchObject({ correlationId: 'a-conversation', causationId: 'request-1' });
  });

  it('queues on the same locks as a multi-stream decision over the same stream, so neither loses a race', async () => {
    const locks = new StreamLocks();
    const cache = new AggregateCache<{ total: number }>();
    const counters = deciderCommandHandler(store, { decider: counter, streamOf, cache, locks, maxAttempts: 1 });
    const both = (amount: number) =>
      handleMultiStreamCommand(
        store,
        { a: counters.participant('counter-a'), b: counters.participant('counter-b') },
        () => ({ a: [{ type: 'test.Added' as const, data: { amount } }], b: [{ type: 'test.Added' as const, data: { amount } }] }),
        context,
        { locks, maxAttempts: 1 },
      );
    await Promise.all([
      counters.run({ counter: 'a', amount: 1 }, context),
      both(10),
      counters.run({ counter: 'b', amount: 2 }, context),
      both(20),
      counters.run({ counter: 'a', amount: 3 }, context),
    ]);
    expect((await counters.load('counter-a')).state).toEqual({ total: 34 });
    expect((await counters.load('counter-b')).state).toEqual({ total: 32 });
    expect(await store.readStream('counter-a')).toHaveLength(4);
    expect(locks.busy).toBe(0);
  });
});
