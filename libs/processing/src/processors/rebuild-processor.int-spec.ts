import { readCheckpoint } from '../checkpoints/checkpoint';
import { openSqliteSqlDatabase } from '../sql/sqlite-sql-database';
import type { SqlDatabase } from '../sql/sql-database.port';
import { InMemoryEventStore } from '../testing/in-memory-event-store';
import { readStreamCounts, streamCounterProjection } from '../testing/stream-counter.projection';
import { appendSpread, testEvent } from '../testing/test-events';
import type { Processor } from './processor';
import { type RebuildProgress, rebuildProcessor } from './rebuild-processor';

describe('rebuildProcessor', () => {
  let db: SqlDatabase;
  const projection = streamCounterProjection();

  beforeEach(async () => {
    db = await openSqliteSqlDatabase({ file: ':memory:' });
  });
  afterEach(() => db.close());

  it('empties the read model and replays the whole log in batches, reporting progress', async () => {
    const store = new InMemoryEventStore();
    await appendSpread(store, { count: 25, streams: 5 });
    await store.append('host-1', [testEvent('other.Ignored')], { expected: 'any' });
    await projection.setup(db);
    await db.run("INSERT INTO test_stream_counts (stream, events, last_position) VALUES ('stale', 1, 0)");
    const progress: RebuildProgress[] = [];
    const result = await rebuildProcessor(store, db, projection, { batchSize: 10, onProgress: (step) => progress.push(step) });
    expect(result).toMatchObject({ position: 26, applied: 25 });
    expect(progress.map((step) => [step.position, step.applied])).toEqual([
      [10, 10],
      [20, 20],
      [26, 25],
    ]);
    expect(await readStreamCounts(db)).toEqual({ 'device-0': 5, 'device-1': 5, 'device-2': 5, 'device-3': 5, 'device-4': 5 });
    expect(await readCheckpoint(db, projection.name)).toEqual({ version: 1, position: 26 });
  });

  it('folds several reads into one transaction for a processor that folds, committing every foldEvents, to the same read model', async () => {
    const store = new InMemoryEventStore();
    await appendSpread(store, { count: 25, streams: 5 });
    const adds: number[] = [];
    const starts: unknown[] = [];
    const folding: Processor = {
      ...projection,
      fold: (tx, start) => {
        starts.push(start);
        const events: Parameters<Processor['apply']>[0][number][] = [];
        return {
          add: async (read) => (adds.push(read.length), events.push(...read), undefined),
          flush: () => projection.apply(events, tx),
        };
      },
    };
    const progress: RebuildProgress[] = [];
    const result = await rebuildProcessor(store, db, folding, { batchSize: 4, foldEvents: 10, untilPosition: 23, onProgress: (step) => progress.push(step) });
    expect(result).toMatchObject({ position: 23, applied: 23 });
    expect(progress.map((step) => step.position)).toEqual([12, 23]);
    expect(adds).toEqual([4, 4, 4, 4, 4, 3]);
    // Only the first fold starts on the tables the reset emptied; the second meets what the first wrote.
    expect(starts).toEqual([{ empty: true }, { empty: false }]);
    expect(await readStreamCounts(db)).toEqual({ 'device-0': 5, 'device-1': 5, 'device-2': 5, 'device-3': 4, 'device-4': 4 });
    expect(await readCheckpoint(db, projection.name)).toEqual({ version: 1, position: 23 });
  });

  it('builds the query-only indexes a processor names after a rebuild from position 0, not row by row', async () => {
    const store = new InMemoryEventStore();
    await appendSpread(store, { count: 12, streams: 3 });
    const indexes = () => db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'test_stream_counts' AND sql IS NOT NULL");
    const seen: string[][] = [];
    const indexed: Processor = {
      ...projection,
      queryOnlyIndexes: ['test_stream_counts_by_events'],
      async setup(tx) {
        await projection.setup(tx);
        await tx.run('CREATE INDEX IF NOT EXISTS test_stream_counts_by_events ON test_stream_counts (events)');
      },
      async apply(events, tx) {
        seen.push((await tx.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'test_stream_counts' AND sql IS NOT NULL")).map((row) => row.name));
        await projection.apply(events, tx);
      },
    };
    await rebuildProcessor(store, db, indexed, { batchSize: 5 });
    expect(seen).toEqual([[], [], []]);
    expect(await indexes()).toEqual([{ name: 'test_stream_counts_by_events' }]);
    expect(await readStreamCounts(db)).toEqual({ 'device-0': 4, 'device-1': 4, 'device-2': 4 });
    await appendSpread(store, { count: 3, streams: 3 });
    seen.length = 0;
    await rebuildProcessor(store, db, indexed, { resume: true });
    expect(seen).toEqual([['test_stream_counts_by_events']]);
  });

  it('stops at a position: the read model as of that position', async () => {
    const store = new InMemoryEventStore();
    await appendSpread(store, { count: 30, streams: 3 });
    const result = await rebuildProcessor(store, db, projection, { untilPosition: 13, batchSize: 4 });
    expect(result).toMatchObject({ position: 13, applied: 13 });
    expect(await readStreamCounts(db)).toEqual({ 'device-0': 5, 'device-1': 4, 'device-2': 4 });
  });

  it('stops before the first event recorded after a time', async () => {
    let now = new Date('2026-01-01T00:00:00.000Z');
    const store = new InMemoryEventStore(() => now);
    await appendSpread(store, { count: 4, streams: 2 });
    now = new Date('2026-01-02T00:00:00.000Z');
    await appendSpread(store, { count: 4, streams: 2 });
    const result = await rebuildProcessor(store, db, projection, { untilTime: '2026-01-01T12:00:00Z' });
    expect(result).toMatchObject({ position: 4, applied: 4 });
    expect(await readStreamCounts(db)).toEqual({ 'device-0': 2, 'device-1': 2 });
    expect(await readCheckpoint(db, projection.name)).toEqual({ version: 1, position: 4 });
  });

  it('names the failing batch by its positions, or the event when it was alone, and keeps the batches before it', async () => {
    const store = new InMemoryEventStore();
    await appendSpread(store, { count: 12, streams: 2 });
    const failing: Processor = {
      ...projection,
      async apply(events, tx) {
        await projection.apply(events, tx);
        if (events.some((event) => event.position === 7)) throw new Error('disk on fire');
      },
    };
    await expect(rebuildProcessor(store, db, failing, { batchSize: 5 })).rejects.toMatchObject({
      code: 'PROCESSING.APPLY_FAILED',
      message: 'test-stream-counter failed on the batch of 5 events at positions 6-10: disk on fire',
      facts: { processor: 'test-stream-counter', firstPosition: 6, lastPosition: 10, events: 5 },
    });
    expect(await readCheckpoint(db, projection.name)).toEqual({ version: 1, position: 5 });
    expect(await readStreamCounts(db)).toEqual({ 'device-0': 3, 'device-1': 2 });
    await expect(rebuildProcessor(store, db, failing, { batchSize: 1 })).rejects.toMatchObject({
      message: 'test-stream-counter failed on test.Counted at position 7: disk on fire',
      facts: { firstPosition: 7, lastPosition: 7, events: 1, type: 'test.Counted' },
    });
  });
});
