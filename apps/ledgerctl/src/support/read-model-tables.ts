import type { SqlExecutor } from '@ledger/processing';

const PROCESSING_TABLES = new Set(['processor_checkpoints', 'processor_leases']);

/**
 * Every row of every read-model table of a scratch SQLite database holding
 * one rebuilt projection: a replay's answer for a projection that has no
 * outline of its own. Tables by name, rows in storage order.
 */
export async function dumpReadModelTables(db: SqlExecutor): Promise<Record<string, Record<string, unknown>[]>> {
  const tables = await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
  const dump: Record<string, Record<string, unknown>[]> = {};
  for (const { name } of tables) {
    if (!PROCESSING_TABLES.has(name)) dump[name] = await db.all(`SELECT * FROM "${name}"`);
  }
  return dump;
}
