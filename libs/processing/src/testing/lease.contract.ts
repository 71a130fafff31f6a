import { readCheckpoint, restartCheckpoint } from '../checkpoints/checkpoint';
import { ensureProcessingTables } from '../checkpoints/processing-tables';
import { acquireLease, LeaseLostError, releaseLease } from '../leases/lease';
import { commitBatch } from '../processors/commit-batch';
import type { SqlDatabase } from '../sql/sql-database.port';
import { InMemoryEventStore } from './in-memory-event-store';
import { readStreamCounts, streamCounterProjection } from './stream-counter.projection';
import { testEvent } from './test-events';
import type { TestDatabases } from './test-databases';

/** Leases and fencing, on every SqlDatabase adapter. */
export function leaseContract(setup: () => TestDatabases): void {
  let databases: TestDatabases;
  let db: SqlDatabase;
  let count = 0;
  const ttlMs = 1000;
  const lease = (owner: string, now: number) => ({ name: 'projector', owner, now, ttlMs });

  beforeAll(() => {
    databases = setup();
  });
  afterAll(() => databases.dispose());
  beforeEach(async () => {
    db = await databases.open(`leases_${++count}`);
    await ensureProcessingTables(db);
  });

  it('is held by one owner until it expires; the holder renews it', async () => {
    expect(await acquireLease(db, lease('a', 0))).toBe(true);
    expect(await acquireLease(db, lease('b', 999))).toBe(false);
    expect(await acquireLease(db, lease('a', 500))).toBe(true);
    expect(await acquireLease(db, lease('b', 1000))).toBe(false);
    expect(await acquireLease(db, lease('b', 1500))).toBe(true);
    expect(await acquireLease(db, lease('a', 1600))).toBe(false);
  });

  it('is free for another owner as soon as its holder releases it', async () => {
    await acquireLease(db, lease('a', 0));
    await releaseLease(db, 'projector', 'b');
    expect(await acquireLease(db, lease('b', 1))).toBe(false);
    await releaseLease(db, 'projector', 'a');
    expect(await acquireLease(db, lease('b', 1))).toBe(true);
  });

  it('goes to exactly one of two processes asking at once', async () => {
    const other = await databases.open(`leases_${count}`);
    const answers = await Promise.all([acquireLease(db, lease('a', 0)), acquireLease(other, lease('b', 0))]);
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it("fences a stale owner's batch: neither the read model nor the checkpoint moves", async () => {
    const store = new InMemoryEventStore();
    await store.append('device-1', [testEvent('test.Counted'), testEvent('test.Counted')], { expected: 'any' });
    const { events } = await store.readAll();
    const projection = { ...streamCounterProjection(), name: 'projector' };
    await db.transaction(async (tx) => {
      await projection.setup(tx);
      await restartCheckpoint(tx, 'projector', 1, new Date(0));
    });
    await acquireLease(db, lease('a', 0));
    expect(await acquireLease(db, lease('b', 2000))).toBe(true);
    const from = { version: 1, position: 0 };
    await expect(commitBatch(db, projection, { events, from, to: 2 }, { fence: lease('a', 2001), now: new Date() })).rejects.toBeInstanceOf(
      LeaseLostError,
    );
    expect(await readStreamCounts(db)).toEqual({});
    expect(await readCheckpoint(db, 'projector')).toEqual(from);
    await commitBatch(db, projection, { events, from, to: 2 }, { fence: lease('b', 2001), now: new Date() });
    expect(await readStreamCounts(db)).toEqual({ 'device-1': 2 });
    expect(await readCheckpoint(db, 'projector')).toEqual({ version: 1, position: 2 });
  });
}
