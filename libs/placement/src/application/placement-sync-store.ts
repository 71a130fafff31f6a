import type { SqlDatabase } from '@ledger/processing';
import type { HostSyncStatus } from './host-sync-status';

export type CustomNameKind = 'resource-class' | 'trait';

const TABLES = [
  `CREATE TABLE IF NOT EXISTS placement_sync_status (
     hostname TEXT PRIMARY KEY,
     state TEXT NOT NULL,
     status TEXT NOT NULL
   )`,
  `CREATE TABLE IF NOT EXISTS placement_created_names (
     kind TEXT NOT NULL,
     name TEXT NOT NULL,
     PRIMARY KEY (kind, name)
   )`,
];

/**
 * The reconciler's own state, kept beside the read models so it survives
 * restarts: each host's sync status (what the status API reads) and the
 * custom resource classes and traits the reconciler created — the only ones
 * it may ever delete. Not a projection: no rebuild touches it.
 */
export class PlacementSyncStore {
  constructor(private readonly db: SqlDatabase) {}

  async setup(): Promise<void> {
    for (const sql of TABLES) await this.db.run(sql);
  }

  async saveStatus(status: HostSyncStatus): Promise<void> {
    await this.db.run(
      `INSERT INTO placement_sync_status (hostname, state, status) VALUES ($1, $2, $3)
       ON CONFLICT (hostname) DO UPDATE SET state = excluded.state, status = excluded.status`,
      [status.hostname, status.state, JSON.stringify(status)],
    );
  }

  async status(hostname: string): Promise<HostSyncStatus | undefined> {
    const row = await this.db.get<{ status: string }>('SELECT status FROM placement_sync_status WHERE hostname = $1', [hostname]);
    return row && (JSON.parse(row.status) as HostSyncStatus);
  }

  async statuses(): Promise<HostSyncStatus[]> {
    const rows = await this.db.all<{ status: string }>('SELECT status FROM placement_sync_status ORDER BY hostname');
    return rows.map((row) => JSON.parse(row.status) as HostSyncStatus);
  }

  /** How many hosts are in each state (states no host is in are absent). */
  async countsByState(): Promise<{ state: HostSyncStatus['state']; hosts: number }[]> {
    const rows = await this.db.all<{ state: HostSyncStatus['state']; hosts: number | string }>('SELECT state, COUNT(*) AS hosts FROM placement_sync_status GROUP BY state');
    return rows.map((row) => ({ state: row.state, hosts: Number(row.hosts) }));
  }

  /** Hosts in any state but in-sync, by name, after `after`; `limit` rows at most. */
  async notInSync(after: string | undefined, limit: number): Promise<HostSyncStatus[]> {
    const rows = await this.db.all<{ status: string }>(
      `SELECT status FROM placement_sync_status WHERE state <> 'in-sync' ${after === undefined ? '' : 'AND hostname > $1'} ORDER BY hostname LIMIT ${limit}`,
      after === undefined ? [] : [after],
    );
    return rows.map((row) => JSON.parse(row.status) as HostSyncStatus);
  }

  async recordCreated(kind: CustomNameKind, name: string): Promise<void> {
    await this.db.run('INSERT INTO placement_created_names (kind, name) VALUES ($1, $2) ON CONFLICT (kind, name) DO NOTHING', [kind, name]);
  }

  async created(): Promise<{ kind: CustomNameKind; name: string }[]> {
    return this.db.all<{ kind: CustomNameKind; name: string }>('SELECT kind, name FROM placement_created_names ORDER BY kind, name');
  }

  async forgetCreated(kind: CustomNameKind, name: string): Promise<void> {
    await this.db.run('DELETE FROM placement_created_names WHERE kind = $1 AND name = $2', [kind, name]);
  }
}
