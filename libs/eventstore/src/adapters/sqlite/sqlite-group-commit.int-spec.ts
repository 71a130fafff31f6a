import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainVerifier, WrongExpectedVersionError } from '@ledger/eventstore';
import { appendManyBesideSingleAppends, newEvent, readAllAfter, uniqueStream } from '@ledger/eventstore/testing';
import { openSqliteEventStore } from './open-sqlite-event-store';
import type { SqliteEventStore } from './sqlite-event-store';

describe('SQLite group commit', () => {
  let dir: string;
  let stores: SqliteEventStore[];
  const open = async (): Promise<SqliteEventStore> => {
    const store = await openSqliteEventStore({ file: join(dir, 'events.sqlite') });
    stores.push(store);
    return store;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-sqlite-group-'));
    stores = [];
  });

  afterEach(async () => {
    await Promise.all(stores.map((store) => store.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits 64 concurrent appends in far fewer transactions', async () => {
    const store = await open();
    const results = await Promise.all(
      Array.from({ length: 64 }, () => store.append(uniqueStream(), [newEvent()], { expected: 'no_stream' })),
    );
    expect(results.map((result) => result.position).sort((a, b) => a - b)).toEqual(Array.from({ length: 64 }, (_, i) => i + 1));
    expect(store.stats()).toEqual({ transactions: 1, appends: 64 });
  });

  it('fails only the append whose expected version does not hold', async () => {
    const store = await open();
    const stream = uniqueStream();
    await store.append(stream, [newEvent()], { expected: 'no_stream' });
    const [before, stale, after] = await Promise.allSettled([
      store.append(uniqueStream(), [newEvent()], { expected: 'no_stream' }),
      store.append(stream, [newEvent()], { expected: 0 }),
      store.append(uniqueStream(), [newEvent()], { expected: 'no_stream' }),
    ]);
    expect(store.stats().transactions).toBe(2);
    expect(before).toMatchObject({ status: 'fulfilled', value: { position: 2 } });
    expect(stale).toMatchObject({ status: 'rejected', reason: expect.any(WrongExpectedVersionError) });
    expect(after).toMatchObject({ status: 'fulfilled', value: { position: 3 } });
  });

  it('commits appendMany calls and single appends made at once in one transaction, failing only the stale call, whole', async () => {
    const store = await open();
    await appendManyBesideSingleAppends(store);
    // Two for the setup's appends, then one for all four calls.
    expect(store.stats()).toEqual({ transactions: 3, appends: 6 });
  });

  it('keeps one gap-free chain when two connections share the file', async () => {
    const [first, second] = [await open(), await open()];
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? first : second).append(uniqueStream(), [newEvent(), newEvent()], { expected: 'any' })),
    );
    const events = await readAllAfter(first, 0);
    expect(events.map((event) => event.position)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
    const verifier = new ChainVerifier();
    for (const event of events) verifier.check(event);
    expect(verifier.verdict().ok).toBe(true);
  });

  it('commits what is queued when closed', async () => {
    const store = await open();
    const pending = store.append(uniqueStream(), [newEvent()], { expected: 'no_stream' });
    await store.close();
    await expect(pending).resolves.toMatchObject({ position: 1 });
    const reopened = await open();
    expect(await reopened.headPosition()).toBe(1);
  });
});
