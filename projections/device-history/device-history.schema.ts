import { createVersionedTables, type SqlExecutor } from '@ledger/processing';

/**
 * The device-history read model: who held which device when (one row per
 * attach-handle claim, closed by its release), every event that touched a
 * device (the timeline), and the two lookups that fill them in: what an
 * accelerator request was for (project, profile, instance) and what each
 * region last held. Usage reports and the health-beside-tenancy question
 * read two more: each device's reported GPU memory (copied into a tenancy
 * at its claim) and every health change (with its cause, the health
 * policy's effect and the policy's version; schema 3). Positions make applying an event
 * twice a no-op: a row is keyed by the position of the event that made it.
 */
const STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS dh_tenancies (
    from_position BIGINT PRIMARY KEY,
    from_time TEXT NOT NULL,
    to_position BIGINT,
    to_time TEXT,
    device_uuid TEXT NOT NULL,
    deployable_uuid TEXT NOT NULL,
    attach_handle_uuid TEXT NOT NULL,
    region TEXT,
    arq_uuid TEXT NOT NULL,
    instance_uuid TEXT,
    project_id TEXT,
    device_profile_uuid TEXT,
    device_profile_name TEXT,
    bitstream_id TEXT,
    resource_class TEXT,
    memory_gib DOUBLE PRECISION
  )`,
  'CREATE INDEX IF NOT EXISTS dh_tenancies_by_device ON dh_tenancies (device_uuid, from_position)',
  'CREATE INDEX IF NOT EXISTS dh_tenancies_open ON dh_tenancies (attach_handle_uuid, arq_uuid, to_position)',
  'CREATE INDEX IF NOT EXISTS dh_tenancies_by_end ON dh_tenancies (to_position)',
  `CREATE TABLE IF NOT EXISTS dh_timeline (
    position BIGINT NOT NULL,
    device_uuid TEXT NOT NULL,
    type TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    actor TEXT NOT NULL,
    project_id TEXT,
    summary TEXT NOT NULL,
    PRIMARY KEY (device_uuid, position)
  )`,
  `CREATE TABLE IF NOT EXISTS dh_arqs (
    arq_uuid TEXT PRIMARY KEY,
    project_id TEXT NOT NULL,
    device_profile_uuid TEXT NOT NULL,
    device_profile_name TEXT NOT NULL,
    instance_uuid TEXT,
    device_uuid TEXT,
    resource_class TEXT
  )`,
  `CREATE TABLE IF NOT EXISTS dh_regions (
    deployable_uuid TEXT PRIMARY KEY,
    region TEXT,
    bitstream_id TEXT,
    position BIGINT NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS dh_devices (
    device_uuid TEXT PRIMARY KEY,
    memory_gib DOUBLE PRECISION,
    position BIGINT NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS dh_health (
    position BIGINT PRIMARY KEY,
    device_uuid TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    health TEXT NOT NULL,
    reason TEXT,
    cause_kind TEXT,
    cause TEXT,
    effect TEXT NOT NULL,
    policy_version TEXT
  )`,
  'CREATE INDEX IF NOT EXISTS dh_health_by_device ON dh_health (device_uuid, position)',
  'CREATE INDEX IF NOT EXISTS dh_health_by_time ON dh_health (recorded_at)',
];

export const DEVICE_HISTORY_TABLES = ['dh_tenancies', 'dh_timeline', 'dh_arqs', 'dh_regions', 'dh_devices', 'dh_health'] as const;

export async function createDeviceHistorySchema(tx: SqlExecutor): Promise<void> {
  await createVersionedTables(tx, { versionTable: 'dh_schema', version: 3, tables: DEVICE_HISTORY_TABLES, statements: STATEMENTS });
}

export async function emptyDeviceHistoryTables(tx: SqlExecutor): Promise<void> {
  for (const table of DEVICE_HISTORY_TABLES) await tx.run(`DELETE FROM ${table}`);
}
