import { createVersionedTables, type SqlExecutor } from '@ledger/processing';
import { createLiveViewTables } from './live-view/live-view.schema';

/**
 * The inventory read model. Portable SQL (SQLite and PostgreSQL); JSON is
 * kept as canonical-JSON TEXT, booleans as INTEGER 0/1, times as ISO-8601
 * TEXT. `stream_version` columns hold the version of the stream that last
 * wrote a row (the host's, or an attribute's) and `device_version` the
 * device stream's: they make applying an event twice a no-op.
 */
const STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS inv_hosts (
    hostname TEXT PRIMARY KEY,
    registered_at TEXT NOT NULL,
    last_report_at TEXT NOT NULL,
    device_count INTEGER NOT NULL,
    status TEXT NOT NULL,
    stream_version INTEGER NOT NULL,
    agent_lost_at TEXT,
    fenced_reason TEXT,
    fenced_at TEXT
  )`,
  // A device row outlives its removal (removed = 1) so its maintenance status
  // survives a rediscovery; a row that only a maintenance fact created has no
  // hostname yet and counts as removed.
  `CREATE TABLE IF NOT EXISTS inv_devices (
    uuid TEXT PRIMARY KEY,
    hostname TEXT,
    type TEXT,
    vendor_id TEXT,
    product_id TEXT,
    subsystem_vendor_id TEXT,
    subsystem_product_id TEXT,
    model TEXT,
    pci_address TEXT,
    board_info TEXT,
    vendor_board_info TEXT,
    driver TEXT,
    numa_node INTEGER,
    capacity TEXT,
    status TEXT NOT NULL DEFAULT 'enabled',
    disabled_reason TEXT,
    health TEXT NOT NULL DEFAULT 'ok',
    health_reason TEXT,
    clean_state TEXT NOT NULL DEFAULT 'clean',
    clean_reason TEXT,
    dirty_handles TEXT NOT NULL DEFAULT '{}',
    shell_interface_id TEXT,
    configured_vfs INTEGER,
    device_version INTEGER NOT NULL DEFAULT 0,
    removed INTEGER NOT NULL DEFAULT 0,
    created_at TEXT,
    updated_at TEXT
  )`,
  'CREATE INDEX IF NOT EXISTS inv_devices_by_host ON inv_devices (hostname, uuid)',
  // The fleet overview's counts and filters read only these columns: from this index, not the wide rows.
  'CREATE INDEX IF NOT EXISTS inv_devices_by_host_state ON inv_devices (hostname, removed, type, status, health)',
  `CREATE TABLE IF NOT EXISTS inv_deployables (
    uuid TEXT PRIMARY KEY,
    device_uuid TEXT NOT NULL,
    hostname TEXT NOT NULL,
    name TEXT NOT NULL,
    rp_uuid TEXT NOT NULL,
    numeric_id BIGINT NOT NULL,
    resource_class TEXT NOT NULL,
    count INTEGER NOT NULL,
    traits TEXT NOT NULL,
    driver_name TEXT,
    bitstream_id TEXT,
    function_id TEXT,
    programmed_at TEXT,
    stream_version INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS inv_deployables_by_device ON inv_deployables (device_uuid)',
  'CREATE INDEX IF NOT EXISTS inv_deployables_by_host ON inv_deployables (hostname, uuid)',
  'CREATE INDEX IF NOT EXISTS inv_deployables_by_rp ON inv_deployables (rp_uuid)',
  'CREATE INDEX IF NOT EXISTS inv_deployables_by_numeric_id ON inv_deployables (numeric_id)',
  `CREATE TABLE IF NOT EXISTS inv_attach_handles (
    uuid TEXT PRIMARY KEY,
    deployable_uuid TEXT NOT NULL,
    device_uuid TEXT NOT NULL,
    hostname TEXT NOT NULL,
    kind TEXT NOT NULL,
    address TEXT NOT NULL,
    physical_network TEXT,
    mdev_type TEXT,
    slot INTEGER,
    in_use INTEGER NOT NULL DEFAULT 0,
    claimed_by TEXT,
    partition_handle TEXT
  )`,
  'CREATE INDEX IF NOT EXISTS inv_attach_handles_by_deployable ON inv_attach_handles (deployable_uuid)',
  // Claims live on the device stream and outlive the handle row: a handle that
  // a report drops and brings back is still held by the same request.
  `CREATE TABLE IF NOT EXISTS inv_handle_claims (
    handle_uuid TEXT PRIMARY KEY,
    arq_uuid TEXT NOT NULL,
    device_uuid TEXT NOT NULL,
    deployable_uuid TEXT NOT NULL
  )`,
  // What a region holds, from the device stream: it outlives the deployable
  // row, which a report may drop and bring back (as claims outlive handles).
  `CREATE TABLE IF NOT EXISTS inv_region_programs (
    deployable_uuid TEXT PRIMARY KEY,
    device_uuid TEXT NOT NULL,
    bitstream_id TEXT,
    function_id TEXT,
    programmed_at TEXT
  )`,
  // Discovered attributes (rc, trait<N>) follow their deployable's row;
  // operator attributes live on their own streams, stay after deletion as
  // tombstones (deleted = 1) for redelivery, and are served only while
  // their deployable exists.
  `CREATE TABLE IF NOT EXISTS inv_attributes (
    uuid TEXT PRIMARY KEY,
    deployable_uuid TEXT NOT NULL,
    deployable_id BIGINT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    origin TEXT NOT NULL,
    stream_version INTEGER NOT NULL,
    deleted INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS inv_attributes_by_deployable ON inv_attributes (deployable_uuid)',
  'CREATE INDEX IF NOT EXISTS inv_attributes_by_deployable_id ON inv_attributes (deployable_id)',
];

/** Every table of the read model, children first (the order `reset` empties them in). */
export const INVENTORY_TABLES = [
  'inv_attributes',
  'inv_handle_claims',
  'inv_region_programs',
  'inv_attach_handles',
  'inv_deployables',
  'inv_devices',
  'inv_hosts',
] as const;

/**
 * The indexes only queries read: the working set loads rows by primary key
 * and by parent (`inv_deployables_by_device`, `inv_attach_handles_by_deployable`,
 * `inv_attributes_by_deployable`), so a rebuild from position 0 builds these
 * at the end instead of row by row (`Processor.queryOnlyIndexes`).
 */
export const INVENTORY_QUERY_ONLY_INDEXES = [
  'inv_devices_by_host',
  'inv_devices_by_host_state',
  'inv_deployables_by_host',
  'inv_deployables_by_rp',
  'inv_deployables_by_numeric_id',
  'inv_attributes_by_deployable_id',
] as const;

/** Bump with any change to the tables above (together with the projection's version). 5: inv_devices' clean state; 6: inv_hosts' fence. */
const SCHEMA_VERSION = 7;

/**
 * Creates the tables (dropping those of another schema version first,
 * `createVersionedTables`). The agents' live view, which host reads join,
 * is created here too but never dropped: events cannot rebuild it.
 */
export async function createInventorySchema(tx: SqlExecutor): Promise<void> {
  await createVersionedTables(tx, { versionTable: 'inv_schema', version: SCHEMA_VERSION, tables: INVENTORY_TABLES, statements: STATEMENTS });
  await createLiveViewTables(tx);
}

export async function emptyInventoryTables(tx: SqlExecutor): Promise<void> {
  for (const table of INVENTORY_TABLES) await tx.run(`DELETE FROM ${table}`);
}
