import type { SqlExecutor } from '@ledger/processing';

/**
 * The inventory read model. Portable SQL (SQLite and PostgreSQL); JSON is
 * kept as canonical-JSON TEXT, booleans as INTEGER 0/1, times as ISO-8601
 * TEXT. `stream_version` columns hold the host stream version that last
 * wrote a row and `maintenance_version` the device stream's: they make
 * applying an event twice a no-op.
 */
const STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS inv_hosts (
    hostname TEXT PRIMARY KEY,
    registered_at TEXT NOT NULL,
    last_report_at TEXT NOT NULL,
    device_count INTEGER NOT NULL,
    status TEXT NOT NULL,
    stream_version INTEGER NOT NULL
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
    maintenance_version INTEGER NOT NULL DEFAULT 0,
    removed INTEGER NOT NULL DEFAULT 0,
    created_at TEXT,
    updated_at TEXT
  )`,
  'CREATE INDEX IF NOT EXISTS inv_devices_by_host ON inv_devices (hostname, uuid)',
  `CREATE TABLE IF NOT EXISTS inv_deployables (
    uuid TEXT PRIMARY KEY,
    device_uuid TEXT NOT NULL,
    hostname TEXT NOT NULL,
    name TEXT NOT NULL,
    rp_uuid TEXT NOT NULL,
    resource_class TEXT NOT NULL,
    count INTEGER NOT NULL,
    traits TEXT NOT NULL,
    driver_name TEXT,
    stream_version INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS inv_deployables_by_device ON inv_deployables (device_uuid)',
  'CREATE INDEX IF NOT EXISTS inv_deployables_by_host ON inv_deployables (hostname, uuid)',
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
    in_use INTEGER NOT NULL DEFAULT 0
  )`,
  'CREATE INDEX IF NOT EXISTS inv_attach_handles_by_deployable ON inv_attach_handles (deployable_uuid)',
];

/** Every table of the read model, children first (the order `reset` empties them in). */
export const INVENTORY_TABLES = ['inv_attach_handles', 'inv_deployables', 'inv_devices', 'inv_hosts'] as const;

export async function createInventorySchema(tx: SqlExecutor): Promise<void> {
  for (const statement of STATEMENTS) await tx.run(statement);
}

export async function emptyInventoryTables(tx: SqlExecutor): Promise<void> {
  for (const table of INVENTORY_TABLES) await tx.run(`DELETE FROM ${table}`);
}
