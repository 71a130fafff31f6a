import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainVerifier } from '@ledger/eventstore';
import { appendBurstUntilKilled, newEvent, readAllAfter, uniqueStream } from '@ledger/eventstore/testing';
import { openSqliteEventStore } from './open-sqlite-event-store';

describe('SQLite event store after a writer is killed mid-burst', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-sqlite-crash-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged event and a verifiable chain', async () => {
    const file = join(dir, 'events.sqlite');
    const acknowledged = await appendBurstUntilKilled({ kind: 'sqlite', file }, 400);

    const store = await openSqliteEventStore({ file });
    try {
      const events = await readAllAfter(store, 0, undefined, 1000);
      const recorded = new Set(events.map((event) => event.id));
      expect(acknowledged.filter((id) => !recorded.has(id))).toEqual([]);
      const verifier = new ChainVerifier();
      for (const event of events) verifier.check(event);
      expect(verifier.verdict()).toMatchObject({ ok: true, checked: events.length, headPosition: await store.headPosition() });
      // The reopened file takes new appends on the same chain.
      const next = await store.append(uniqueStream(), [newEvent()], { expected: 'no_stream' });
      expect(next.position).toBe(events.length + 1);
    } finally {
      await store.close();
    }
  });
});
