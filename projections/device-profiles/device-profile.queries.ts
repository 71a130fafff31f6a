import type { SqlExecutor } from '@ledger/processing';
import type { DeviceProfileView } from './device-profile.views';

interface ProfileRow {
  uuid: string;
  name: string;
  description: string | null;
  groups: string;
  created_at: string;
  updated_at: string | null;
}

/** Reads of the device-profile read model. */
export class DeviceProfileQueries {
  constructor(private readonly db: SqlExecutor) {}

  /** Every profile, or those with one of `names` (Cyborg's `?name=a,b`), oldest first. */
  async list(names?: readonly string[]): Promise<DeviceProfileView[]> {
    if (names?.length === 0) return [];
    const where = names ? `WHERE name IN (${names.map((_, index) => `$${index + 1}`).join(', ')})` : '';
    const rows = await this.db.all<ProfileRow>(`SELECT * FROM dp_profiles ${where} ORDER BY created_at, name`, names ?? []);
    return rows.map(toView);
  }

  async getByUuid(uuid: string): Promise<DeviceProfileView | undefined> {
    const row = await this.db.get<ProfileRow>('SELECT * FROM dp_profiles WHERE uuid = $1', [uuid.toLowerCase()]);
    return row && toView(row);
  }

  async getByName(name: string): Promise<DeviceProfileView | undefined> {
    const row = await this.db.get<ProfileRow>('SELECT * FROM dp_profiles WHERE name = $1', [name]);
    return row && toView(row);
  }
}

const toView = (row: ProfileRow): DeviceProfileView => ({
  uuid: row.uuid,
  name: row.name,
  description: row.description,
  groups: JSON.parse(row.groups) as Record<string, string>[],
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});
