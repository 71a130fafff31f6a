import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventStore, openEventStore } from '@ledger/eventstore';
import { openSqliteSqlDatabase } from '../sql/sqlite-sql-database';
import type { SqlDatabase } from '../sql/sql-database.port';
import { ReactorRuntime } from '../reactors/reactor-runtime';
import { capturingLogger } from '../testing/capturing-logger';
import { ControllableOutside } from '../testing/controllable-outside';
import { eventually } from '../testing/eventually';
import { streamCounterProjection } from '../testing/stream-counter.projection';
import { appendSpread, testEvent } from '../testing/test-events';
import { ProcessorRuntime } from './processor-runtime';

/**
 * Issue 11's restore: an older events.sqlite (head 16) beside read models
 * checkpointed at 19. Left alone, the next events get positions 17.. which
 * the projection believes it applied, and they are never read.
 */
describe('restore safety: an older event store beside newer read models (SQLite)', () => {
  const projection = streamCounterProjection();
  const dirs: string[] = [];
  const closing: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    for (const resource of closing.reverse()) await resource.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const runtimeOn = (store: EventStore, db: SqlDatabase, logger = capturingLogger()) =>
    new ProcessorRuntime({ store, db, processors: [projection], owner: 'restore-test', leaseTtlMs: 5_000, logger });

  /** Read models checkpointed at 19 (by `runtimeOn`'s runtime), beside events.sqlite restored from a copy taken at 16. */
  async function restoredBehindReadModels(
    runtimeBefore: (store: EventStore, db: SqlDatabase) => { start(): Promise<void>; waitForPosition(position: number): Promise<void>; stop(): Promise<void> } = runtimeOn,
  ): Promise<{ store: EventStore; db: SqlDatabase }> {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-restore-'));
    dirs.push(dir);
    const eventsFile = join(dir, 'events.sqlite');
    const backupFile = join(dir, 'events-backup.sqlite');
    const db = await openSqliteSqlDatabase({ file: join(dir, 'read-models.sqlite') });
    closing.push(db);
    let store = await openEventStore({ kind: 'sqlite', file: eventsFile });
    await appendSpread(store, { count: 16, streams: 2 });
    await store.close(); // a consistent copy: the WAL is folded in at close
    copyFileSync(eventsFile, backupFile);
    store = await openEventStore({ kind: 'sqlite', file: eventsFile });
    await appendSpread(store, { count: 3, streams: 2 });
    const before = runtimeBefore(store, db);
    await before.start();
    await before.waitForPosition(19);
    await before.stop();
    await store.close();

    copyFileSync(backupFile, eventsFile);
    store = await openEventStore({ kind: 'sqlite', file: eventsFile });
    closing.push(store);
    expect(await store.headPosition()).toBe(16);
    return { store, db };
  }

  const countOf = async (db: SqlDatabase, stream: string) =>
    (await db.get<{ events: number }>('SELECT events FROM test_stream_counts WHERE stream = $1', [stream]))?.events;
  const totalOf = async (db: SqlDatabase) => Number((await db.get<{ sum: number }>('SELECT SUM(events) AS sum FROM test_stream_counts'))?.sum);

  it('rebuilds the projection, reports it, and reads the events appended after the restore', async () => {
    const { store, db } = await restoredBehindReadModels();
    const logger = capturingLogger();
    const after = runtimeOn(store, db, logger);
    await after.start();
    try {
      const { position } = await store.append('device-new', [testEvent('test.Counted')], { expected: 'no_stream' });
      expect(position).toBe(17);
      await after.waitForPosition(17);
      expect(await countOf(db, 'device-new')).toBe(1);
      expect(await totalOf(db)).toBe(17);
      const [status] = await after.status();
      expect(status.restored).toMatch(/checkpoint 19 was past the log head 16.*restarted at 0/);
      expect(logger.lines.some((line) => line.startsWith('error: ') && line.includes('past the log head 16'))).toBe(true);
    } finally {
      await after.stop();
    }
  });

  it('rebuilds when the restored log grew past the old checkpoint before start: positions 17-19 now hold other events', async () => {
    const { store, db } = await restoredBehindReadModels();
    // Appended before any processor runs (an API-only replica, a start with processors off):
    // the head passes the checkpoint again, so only the chain hash at 19 tells the logs apart.
    await store.append('device-new', [1, 2, 3, 4, 5].map(() => testEvent('test.Counted')), { expected: 'no_stream' });
    expect(await store.headPosition()).toBe(21);
    const logger = capturingLogger();
    const after = runtimeOn(store, db, logger);
    await after.start();
    try {
      await after.waitForPosition(21);
      expect(await countOf(db, 'device-new')).toBe(5);
      expect(await totalOf(db)).toBe(21);
      const [status] = await after.status();
      expect(status.restored).toMatch(/checkpoint 19 was stored with chain hash \w+… but the log's event there has \w+….*restarted at 0/);
      expect(logger.lines.some((line) => line.startsWith('error: ') && line.includes('chain hash'))).toBe(true);
    } finally {
      await after.stop();
    }
  });

  it('trusts a checkpoint whose event is still in the log: a restart with an intact store rebuilds nothing', async () => {
    const { store, db } = await restoredBehindReadModels();
    const first = runtimeOn(store, db);
    await first.start();
    await store.append('device-new', [testEvent('test.Counted')], { expected: 'no_stream' });
    await first.waitForPosition(17);
    await first.stop();
    const logger = capturingLogger();
    const second = runtimeOn(store, db, logger);
    await second.start();
    try {
      await second.waitForPosition(17);
      const [status] = await second.status();
      expect(status.restored).toBeUndefined();
      expect(logger.lines.filter((line) => line.startsWith('error: '))).toEqual([]);
      expect(await totalOf(db)).toBe(17);
    } finally {
      await second.stop();
    }
  });

  it('resumes a reactor at the head when the restored log grew past its checkpoint, and acts on what comes next', async () => {
    const outside = new ControllableOutside();
    const reactorsOn = (store: EventStore, db: SqlDatabase, logger = capturingLogger()) =>
      new ReactorRuntime({ store, db, reactors: [outside.reactor()], owner: 'restore-test', leaseTtlMs: 5_000, logger });
    const { store, db } = await restoredBehindReadModels(reactorsOn);
    expect(outside.calls).toEqual([...Array(19).keys()].map((index) => index + 1));
    await store.append('device-new', [1, 2, 3, 4, 5].map(() => testEvent('test.Counted')), { expected: 'no_stream' });
    const logger = capturingLogger();
    const after = reactorsOn(store, db, logger);
    await after.start();
    try {
      await after.waitForPosition(21);
      const [status] = await after.status();
      expect(status.restored).toMatch(/checkpoint 19 was stored with chain hash .*restarted at 21/);
      expect(logger.lines.some((line) => line.startsWith('error: ') && line.includes('restarted at 21'))).toBe(true);
      expect(outside.calls.filter((position) => position > 19)).toEqual([]);
      await store.append('device-new', [testEvent('test.Counted')], { expected: 5 });
      await eventually(() => outside.calls.includes(22));
    } finally {
      await after.stop();
    }
  });
});
