import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Decider, DomainEvent } from '@ledger/kernel';
import { contractActor } from '@ledger/eventstore/testing';
import { openSqliteEventStore } from '../adapters/sqlite/open-sqlite-event-store';
import type { SqliteEventStore } from '../adapters/sqlite/sqlite-event-store';
import type { EventStore } from '../event-store.port';
import { AggregateCache } from './aggregate-cache';
import { type CommandContext, toNewEvents } from './command-context';
import { handleCommand, loadAggregate } from './handle-command';
import { StreamVersionWatch } from './stream-version-watch';

type Added = DomainEvent<'test.Added', { amount: number }>;
const counter: Decider<{ amount: number }, { total: number }, Added> = {
  decide: (command) => (command.amount === 0 ? [] : [{ type: 'test.Added', data: { amount: command.amount } }]),
  evolve: (state, event) => ({ total: state.total + event.data.amount }),
  initialState: () => ({ total: 0 }),
};
const context: CommandContext = { actor: contractActor, correlationId: 'request-1' };
const added = (amount: number) => toNewEvents([{ type: 'test.Added', data: { amount } }], context);

describe('StreamVersionWatch', () => {
  let directory: string;
  let store: SqliteEventStore;
  let watch: StreamVersionWatch;
  let cache: AggregateCache<{ total: number }>;
  const load = (stream: string) => loadAggregate(store, stream, counter, cache, watch);

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'stream-version-watch-'));
    store = await openSqliteEventStore({ file: join(directory, 'events.db') });
    watch = new StreamVersionWatch(store, { categories: ['counter'] });
    cache = new AggregateCache();
    await store.append('counter-a', added(1), { expected: 'no_stream' });
    await watch.catchUp();
  });

  afterEach(async () => {
    watch.close();
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('reads a confirmed stream no more until something is appended to it', async () => {
    expect(await load('counter-a')).toEqual({ state: { total: 1 }, version: 1 });
    const readStream = jest.spyOn(store, 'readStream');
    expect(await load('counter-a')).toEqual({ state: { total: 1 }, version: 1 });
    expect(await handleCommand(store, 'counter-a', counter, { amount: 0 }, context, { cache, freshness: watch })).toMatchObject({ appended: 0, version: 1 });
    expect(readStream).not.toHaveBeenCalled();
  });

  it('reads the tail again once this process appended to the stream by another way than the cache', async () => {
    await load('counter-a');
    await store.append('counter-a', added(2), { expected: 1 });
    expect(watch.isCurrent('counter-a', 1)).toBe(false);
    await watch.catchUp();
    expect(watch.isCurrent('counter-a', 1)).toBe(false);
    expect(await load('counter-a')).toEqual({ state: { total: 3 }, version: 2 });
    expect(watch.isCurrent('counter-a', 2)).toBe(true);
  });

  it('trusts nothing after another process committed to the same file, which announced nothing', async () => {
    await load('counter-a');
    const other = await openSqliteEventStore({ file: join(directory, 'events.db') });
    await other.append('counter-a', added(5), { expected: 1 });
    await other.close();
    expect(watch.isCurrent('counter-a', 1)).toBe(false);
    await watch.catchUp();
    expect(watch.isCurrent('counter-a', 1)).toBe(false);
    expect(await load('counter-a')).toEqual({ state: { total: 6 }, version: 2 });
  });

  it('refuses a confirmation when the log was read past the mark meanwhile', async () => {
    const mark = watch.mark();
    await store.append('counter-a', added(2), { expected: 1 });
    await watch.catchUp();
    watch.confirm('counter-a', 1, mark);
    expect(watch.isCurrent('counter-a', 1)).toBe(false);
  });

  it('trusts nothing on a store that announces no commits (EventStoreDB), and reads nothing for it', () => {
    const silent = { kind: 'esdb', readAll: jest.fn(), headPosition: jest.fn(), waitForAppend: jest.fn() } as unknown as EventStore;
    const unannounced = new StreamVersionWatch(silent, { categories: ['counter'] });
    unannounced.confirm('counter-a', 1, unannounced.mark());
    expect(unannounced.isCurrent('counter-a', 1)).toBe(false);
    expect([silent.readAll, silent.headPosition, silent.waitForAppend].map((read) => (read as jest.Mock).mock.calls.length)).toEqual([0, 0, 0]);
    unannounced.close();
  });

  it('confirms its own appends, and never a stream outside its categories', async () => {
    await handleCommand(store, 'counter-a', counter, { amount: 4 }, context, { cache, freshness: watch });
    await watch.catchUp();
    expect(watch.isCurrent('counter-a', 2)).toBe(true);
    await loadAggregate(store, 'other-a', counter, cache, watch);
    expect(watch.isCurrent('other-a', 0)).toBe(false);
  });
});
