import { InMemoryEventStore } from '../testing/in-memory-event-store';
import { streamCounterProjection } from '../testing/stream-counter.projection';
import { appendSpread } from '../testing/test-events';
import { sqliteTestDatabases } from '../testing/test-databases';
import { rebuildProcessor } from './rebuild-processor';

/**
 * A guard, not the benchmark: a trivial projection rebuilds at 150–300k
 * events/s on a 2-core machine. The floor sits far below that so parallel
 * test load cannot trip it, yet far above what a transaction or an fsync
 * per event would give (a few thousand per second).
 */
const FLOOR_EVENTS_PER_SECOND = 30_000;

describe('rebuild throughput', () => {
  const databases = sqliteTestDatabases();
  afterAll(() => databases.dispose());

  it(`replays a trivial projection at ≥ ${FLOOR_EVENTS_PER_SECOND} events/s into an SQLite file`, async () => {
    const store = new InMemoryEventStore();
    await appendSpread(store, { count: 50_000, streams: 1000, batch: 1000 });
    const db = await databases.open('throughput');
    const result = await rebuildProcessor(store, db, streamCounterProjection());
    expect(result.applied).toBe(50_000);
    expect(result.applied / (result.elapsedMs / 1000)).toBeGreaterThan(FLOOR_EVENTS_PER_SECOND);
  });
});
