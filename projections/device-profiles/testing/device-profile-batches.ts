import type { SqlDatabase } from '@ledger/processing';
import { applyProjectionBatches, type Batches } from '@ledger/processing/testing';
import { deviceProfilesProjection } from '../device-profiles.projection';

/** Sets the projection up, then applies each batch in its own transaction, as the runtime does. */
export const applyDeviceProfileBatches = (db: SqlDatabase, batches: Batches): Promise<void> => applyProjectionBatches(db, deviceProfilesProjection, batches);

/** Every row of the read model, in a fixed order: what two builds must agree on. */
export const snapshotDeviceProfiles = (db: SqlDatabase) => db.all('SELECT * FROM dp_profiles ORDER BY uuid');
