import type { RecordedEvent } from '@ledger/eventstore';
import type { SqlDatabase } from '@ledger/processing';
import { deviceProfilesProjection } from '../device-profiles.projection';

export type Batches = readonly (readonly RecordedEvent[])[];

export const oneBatch = (events: readonly RecordedEvent[]): Batches => [events];
export const onePerBatch = (events: readonly RecordedEvent[]): Batches => events.map((event) => [event]);
export const everyBatchTwice = (batches: Batches): Batches => batches.flatMap((batch) => [batch, batch]);

/** Sets the projection up, then applies each batch in its own transaction, as the runtime does. */
export async function applyDeviceProfileBatches(db: SqlDatabase, batches: Batches): Promise<void> {
  await db.transaction((tx) => deviceProfilesProjection.setup(tx));
  for (const batch of batches) await db.transaction((tx) => deviceProfilesProjection.apply(batch, tx));
}

/** Every row of the read model, in a fixed order: what two builds must agree on. */
export const snapshotDeviceProfiles = (db: SqlDatabase) => db.all('SELECT * FROM dp_profiles ORDER BY uuid');
