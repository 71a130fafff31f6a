import { createVersionedTables, type SqlExecutor } from '@ledger/processing';

/**
 * The facts the desired Placement state follows from, per host, device,
 * deployable and program job; the desired providers themselves are
 * composed when read (libs/placement's `desiredHostPlacement`), so a fact
 * changes one row, not every provider it touches. Portable SQL; JSON as
 * canonical-JSON TEXT, booleans as INTEGER 0/1.
 */
const STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS pl_hosts (
    hostname TEXT PRIMARY KEY,
    agent_lost INTEGER NOT NULL,
    out_of_service INTEGER NOT NULL,
    fenced INTEGER NOT NULL,
    position BIGINT NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS pl_devices (
    device_uuid TEXT PRIMARY KEY,
    hostname TEXT,
    removed INTEGER NOT NULL,
    disabled INTEGER NOT NULL,
    health TEXT NOT NULL,
    dirty_handles TEXT NOT NULL,
    position BIGINT NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS pl_devices_by_host ON pl_devices (hostname)',
  `CREATE TABLE IF NOT EXISTS pl_deployables (
    deployable_uuid TEXT PRIMARY KEY,
    device_uuid TEXT NOT NULL,
    hostname TEXT NOT NULL,
    name TEXT NOT NULL,
    rp_uuid TEXT NOT NULL,
    resource_class TEXT NOT NULL,
    count INTEGER NOT NULL,
    traits TEXT NOT NULL,
    driver_name TEXT,
    traits_position BIGINT NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS pl_deployables_by_device ON pl_deployables (device_uuid)',
  'CREATE INDEX IF NOT EXISTS pl_deployables_by_host ON pl_deployables (hostname)',
  `CREATE TABLE IF NOT EXISTS pl_program_jobs (
    job_id TEXT PRIMARY KEY,
    hostname TEXT NOT NULL,
    deployable_uuid TEXT NOT NULL,
    state TEXT NOT NULL,
    function_id TEXT,
    finished_position BIGINT
  )`,
  'CREATE INDEX IF NOT EXISTS pl_program_jobs_by_host ON pl_program_jobs (hostname, state)',
];

/** Every table of the read model (the order `reset` empties them in). */
export const PLACEMENT_TABLES = ['pl_program_jobs', 'pl_deployables', 'pl_devices', 'pl_hosts'] as const;

/** Bump with any change to the tables above (together with the projection's version). 2: pl_hosts.out_of_service; 3: pl_hosts.fenced; 4: pl_devices.dirty_handles. */
const SCHEMA_VERSION = 4;

export async function createPlacementSchema(tx: SqlExecutor): Promise<void> {
  await createVersionedTables(tx, { versionTable: 'pl_schema', version: SCHEMA_VERSION, tables: PLACEMENT_TABLES, statements: STATEMENTS });
}

export async function emptyPlacementTables(tx: SqlExecutor): Promise<void> {
  for (const table of PLACEMENT_TABLES) await tx.run(`DELETE FROM ${table}`);
}
