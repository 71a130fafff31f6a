import type { RecordedEvent } from '@ledger/eventstore';
import type { Processor } from '../processors/processor';
import type { SqlDatabase } from '../sql/sql-database.port';

/**
 * How a test cuts a history into batches. A projection must build the same
 * read model however the runtime cuts the log and when a batch is delivered
 * twice (STYLE.md: "feed every event twice").
 */
export type Batches = readonly (readonly RecordedEvent[])[];

export const oneBatch = (events: readonly RecordedEvent[]): Batches => [events];
export const onePerBatch = (events: readonly RecordedEvent[]): Batches => events.map((event) => [event]);
export const inBatchesOf = (size: number, events: readonly RecordedEvent[]): Batches =>
  Array.from({ length: Math.ceil(events.length / size) }, (_, index) => events.slice(index * size, (index + 1) * size));
export const everyBatchTwice = (batches: Batches): Batches => batches.flatMap((batch) => [batch, batch]);

/** Sets the projection up, then applies each batch in its own transaction, as the runtime does. */
export async function applyProjectionBatches(db: SqlDatabase, projection: Processor, batches: Batches): Promise<void> {
  await db.transaction((tx) => projection.setup(tx));
  for (const batch of batches) await db.transaction((tx) => projection.apply(batch, tx));
}
