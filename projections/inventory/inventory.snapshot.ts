import type { SqlExecutor } from '@ledger/processing';
import { INVENTORY_TABLES } from './inventory.schema';

export type InventorySnapshot = Readonly<Record<(typeof INVENTORY_TABLES)[number], Record<string, unknown>[]>>;

/** The key each table's rows are ordered by in a snapshot. */
const ORDER: Readonly<Record<(typeof INVENTORY_TABLES)[number], string>> = {
  inv_hosts: 'hostname',
  inv_devices: 'uuid',
  inv_deployables: 'uuid',
  inv_attach_handles: 'uuid',
  inv_handle_claims: 'handle_uuid',
  inv_region_programs: 'deployable_uuid',
  inv_attributes: 'uuid',
};

/**
 * Every row of the inventory read model, each table in key order (sorted
 * here, not by the database, so SQLite and PostgreSQL collations agree): for
 * the auditor's replay printout and for comparing a live read model with a
 * rebuild from zero.
 */
export async function snapshotInventory(db: SqlExecutor): Promise<InventorySnapshot> {
  const snapshot: Partial<Record<(typeof INVENTORY_TABLES)[number], Record<string, unknown>[]>> = {};
  for (const table of INVENTORY_TABLES) {
    const key = ORDER[table];
    const rows = await db.all<Record<string, unknown>>(`SELECT * FROM ${table}`);
    snapshot[table] = rows.sort((a, b) => (String(a[key]) < String(b[key]) ? -1 : String(a[key]) > String(b[key]) ? 1 : 0));
  }
  return snapshot as InventorySnapshot;
}
