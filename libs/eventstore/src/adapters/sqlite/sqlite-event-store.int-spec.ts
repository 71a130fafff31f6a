import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEventStoreContract } from '@ledger/eventstore/testing';
import { openSqliteEventStore } from './open-sqlite-event-store';

describeEventStoreContract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-sqlite-'));
  const store = await openSqliteEventStore({ file: join(dir, 'data', 'events.sqlite') });
  return {
    store,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
