import type { SqlExecutor } from '../sql/sql-database.port';
import type { Processor } from '../processors/processor';

export interface StreamCounterOptions {
  readonly name?: string;
  readonly version?: number;
  readonly handles?: readonly string[];
  readonly categories?: readonly string[];
}

/**
 * A test projection: events per stream, for tests of the runtime rather than
 * of set-based application, so it simply writes once per event of a batch.
 * Each write is keyed by position (a stream's row only moves forward), so a
 * redelivered event changes nothing, the property every projection must have.
 */
export function streamCounterProjection(options: StreamCounterOptions = {}): Processor {
  return {
    name: options.name ?? 'test-stream-counter',
    version: options.version ?? 1,
    handles: options.handles ?? ['test.Counted'],
    filter: options.categories ? { categories: options.categories } : undefined,
    async setup(tx) {
      await tx.run(
        'CREATE TABLE IF NOT EXISTS test_stream_counts (stream TEXT PRIMARY KEY, events INTEGER NOT NULL, last_position BIGINT NOT NULL)',
      );
    },
    async reset(tx) {
      await tx.run('DELETE FROM test_stream_counts');
    },
    async apply(events, tx) {
      for (const event of events) {
        await tx.run(
          `INSERT INTO test_stream_counts (stream, events, last_position) VALUES ($1, 1, $2)
           ON CONFLICT (stream) DO UPDATE SET events = test_stream_counts.events + 1, last_position = excluded.last_position
           WHERE test_stream_counts.last_position < excluded.last_position`,
          [event.stream, event.position],
        );
      }
    },
  };
}

/** The counter's read model as `{ stream: events }`. */
export async function readStreamCounts(db: SqlExecutor): Promise<Record<string, number>> {
  const rows = await db.all<{ stream: string; events: number }>('SELECT stream, events FROM test_stream_counts ORDER BY stream');
  return Object.fromEntries(rows.map((row) => [row.stream, row.events]));
}
