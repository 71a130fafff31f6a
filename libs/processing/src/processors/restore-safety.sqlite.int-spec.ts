import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventStore, openEventStore } from '@ledger/eventstore';
import { openSqliteSqlDatabase } from '../sql/sqlite-sql-database';
import type { SqlDatabase } from '../sql/sql-database.port';
import { capturingLogger } from '../testing/capturing-logger';
import { streamCounterProjection } from '../testing/stream-counter.projection';
import { appendSpread, testEvent } from '../testing/test-events';
import { ProcessorRuntime } from './processor-runtime';

/**
 * Issue 11's restore: an older events.sqlite (head 16) beside read models
 * checkpointed at 19. Left alone, the next events get positions 17.. which
 * the projection believes it applied, and they are never read.
 */
describe('restore safety: an older event store beside newer read models (SQLite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-restore-'));
  const eventsFile = join(dir, 'events.sqlite');
  const backupFile = join(dir, 'events-backup.sqlite');
  const projection = streamCounterProjection();
  let db: SqlDatabase;
  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const runtimeOn = (store: EventStore, logger = capturingLogger()) =>
    new ProcessorRuntime({ store, db, processors: [projection], owner: 'restore-test', leaseTtlMs: 5_000, logger });

  it('rebuilds the projection, reports it, and reads the events appended after the restore', async () => {
    db = await openSqliteSqlDatabase({ file: join(dir, 'read-models.sqlite') });
    let store = await openEventStore({ kind: 'sqlite', file: eventsFile });
    await appendSpread(store, { count: 16, streams: 2 });
    await store.close(); // a consistent copy: the WAL is folded in at close
    copyFileSync(eventsFile, backupFile);
    store = await openEventStore({ kind: 'sqlite', file: eventsFile });
    await appendSpread(store, { count: 3, streams: 2 });
    const before = runtimeOn(store);
    await before.start();
    await before.waitForPosition(19);
    await before.stop();
    await store.close();

    copyFileSync(backupFile, eventsFile);
    store = await openEventStore({ kind: 'sqlite', file: eventsFile });
    expect(await store.headPosition()).toBe(16);
    const logger = capturingLogger();
    const after = runtimeOn(store, logger);
    await after.start();
    try {
      const { position } = await store.append('device-new', [testEvent('test.Counted')], { expected: 'no_stream' });
      expect(position).toBe(17);
      await after.waitForPosition(17);
      const row = await db.get<{ events: number }>('SELECT events FROM test_stream_counts WHERE stream = $1', ['device-new']);
      expect(row?.events).toBe(1);
      const total = await db.get<{ sum: number }>('SELECT SUM(events) AS sum FROM test_stream_counts');
      expect(Number(total?.sum)).toBe(17);
      const [status] = await after.status();
      expect(status.restored).toMatch(/checkpoint 19 was past the log head 16.*restarted at 0/);
      expect(logger.lines.some((line) => line.startsWith('error: ') && line.includes('past the log head 16'))).toBe(true);
    } finally {
      await after.stop();
      await store.close();
    }
  });
});
