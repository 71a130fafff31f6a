import { DEVICE_PROFILE_EVENT_TYPES, DEVICE_PROFILE_STREAM_CATEGORY, type DeviceProfileEvent } from '@ledger/allocation';
import type { RecordedEvent } from '@ledger/eventstore';
import type { Projection, SqlExecutor } from '@ledger/processing';
import { createDeviceProfileSchema, emptyDeviceProfileTables } from './device-profiles.schema';

/**
 * Device profiles, one row per live profile. Profiles are few and rarely
 * written, so each event is one statement. Redelivery is a no-op without a
 * version column: a create whose uuid or name is already taken inserts
 * nothing (the row is this create's, or a later life of the name that the
 * same batch also recreates), and a delete matches uuid and name.
 */
export const deviceProfilesProjection: Projection = {
  name: 'device-profiles',
  version: 1,
  handles: DEVICE_PROFILE_EVENT_TYPES,
  filter: { categories: [DEVICE_PROFILE_STREAM_CATEGORY] },
  setup: createDeviceProfileSchema,
  reset: emptyDeviceProfileTables,
  async apply(events, tx) {
    for (const event of events) await applyEvent(event as RecordedEvent & DeviceProfileEvent, tx);
  },
};

async function applyEvent(event: RecordedEvent & DeviceProfileEvent, tx: SqlExecutor): Promise<void> {
  switch (event.type) {
    case 'allocation.DeviceProfileCreated': {
      const { uuid, name, description, groups, createdAt } = event.data;
      await tx.run(
        `INSERT INTO dp_profiles (uuid, name, description, groups, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, NULL) ON CONFLICT DO NOTHING`,
        [uuid, name, description, JSON.stringify(groups), createdAt],
      );
      return;
    }
    case 'allocation.DeviceProfileDeleted':
      await tx.run('DELETE FROM dp_profiles WHERE uuid = $1 AND name = $2', [event.data.uuid, event.data.name]);
      return;
  }
}
