import type { EventStore } from '@ledger/eventstore';
import { rebuildProcessor, type SqlDatabase } from '@ledger/processing';
import { REPLAYABLE_PROJECTIONS } from '@ledger/projections/catalog';
import { LIVE_VIEW_TABLES } from '@ledger/projections/inventory';

/** Tables no rebuild gives back: the processing machinery's (a rebuild writes its own), and the agents' live view (written from heartbeats, never from the log). */
const NOT_FROM_THE_LOG = new Set<string>(['processor_checkpoints', 'processor_leases', ...LIVE_VIEW_TABLES]);

/**
 * Rebuilds every read model from the log into `scratch` (an empty database
 * of the live one's engine) and lists each table whose rows differ from the
 * live one's: a skipped event leaves a row missing or stale, an event
 * applied twice a row too many or a count off. Empty when they are equal.
 */
export async function readModelsAgainstRebuild(store: EventStore, live: SqlDatabase, scratch: SqlDatabase): Promise<string[]> {
  for (const projection of REPLAYABLE_PROJECTIONS.values()) await rebuildProcessor(store, scratch, projection);
  const tables = (await tablesOf(scratch)).filter((table) => !NOT_FROM_THE_LOG.has(table));
  if (tables.length <= REPLAYABLE_PROJECTIONS.size) throw new Error(`a rebuild of ${REPLAYABLE_PROJECTIONS.size} projections made only the tables ${tables.join(', ')}`);
  const differences: string[] = [];
  for (const table of tables) {
    const [current, fromLog] = [await rowsOf(live, table), await rowsOf(scratch, table)];
    if (JSON.stringify(current) === JSON.stringify(fromLog)) continue;
    differences.push(
      `${table}: ${current.length} live rows, ${fromLog.length} rebuilt; first live ${current.find((row) => !fromLog.includes(row))}, ` +
        `first rebuilt ${fromLog.find((row) => !current.includes(row))}`,
    );
  }
  return differences;
}

async function tablesOf(db: SqlDatabase): Promise<string[]> {
  const rows =
    db.dialect === 'sqlite'
      ? await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      : await db.all<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()');
  return rows.map((row) => row.name).sort();
}

/** A table's rows as JSON text in a stable order, whatever order the engine returns them in. */
async function rowsOf(db: SqlDatabase, table: string): Promise<string[]> {
  return (await db.all(`SELECT * FROM ${table}`)).map((row) => JSON.stringify(row)).sort();
}
