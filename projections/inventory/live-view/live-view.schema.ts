import { addColumnIfAbsent, type SqlExecutor } from '@ledger/processing';

/**
 * The agents' live view: what heartbeats last said, written by API replicas
 * in batches, never derived from events. It sits beside the inventory read
 * model (host reads join it) but is no part of it: a projection rebuild
 * neither drops nor empties it, since the log cannot give it back. Times
 * are epoch milliseconds, so the liveness monitor can do arithmetic on them
 * in portable SQL.
 */
/** The live view's tables: not read models of the log, so never part of a rebuild's comparison. */
export const LIVE_VIEW_TABLES = ['inv_host_liveness', 'inv_host_telemetry', 'inv_host_telemetry_history'] as const;

const STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS inv_host_liveness (
    hostname TEXT PRIMARY KEY,
    last_seen_ms BIGINT NOT NULL,
    heartbeat_ms BIGINT,
    interval_ms BIGINT,
    agent_version TEXT,
    lost_after_ms BIGINT
  )`,
  // A host's last heartbeat's devices as one JSON array: one row per heartbeat instead of one per device.
  `CREATE TABLE IF NOT EXISTS inv_host_telemetry (
    hostname TEXT PRIMARY KEY,
    heartbeat_ms BIGINT NOT NULL,
    devices TEXT NOT NULL
  )`,
  // Its predecessor, a row per device: live values only, which the next heartbeats give again.
  'DROP TABLE IF EXISTS inv_device_telemetry',
  // Its predecessor, a row per device per step: eight rows a heartbeat, each in three indexes. Its samples are
  // at most LEDGER_TELEMETRY_HISTORY_MINUTES old, and charts only: the new table starts empty.
  'DROP TABLE IF EXISTS inv_device_telemetry_history',
  // Each host's telemetry over time: one row per host per step (`step_ms`, the step's start), its devices as one
  // JSON array, written once: the step's first heartbeat.
  `CREATE TABLE IF NOT EXISTS inv_host_telemetry_history (
    hostname TEXT NOT NULL,
    step_ms BIGINT NOT NULL,
    heartbeat_ms BIGINT NOT NULL,
    devices TEXT NOT NULL,
    PRIMARY KEY (hostname, step_ms)
  )`,
  'CREATE INDEX IF NOT EXISTS inv_host_telemetry_history_by_step ON inv_host_telemetry_history (step_ms)',
];

/** Creates the live-view tables if absent (inside the inventory projection's setup, or on its own). */
export async function createLiveViewTables(tx: SqlExecutor): Promise<void> {
  for (const statement of STATEMENTS) await tx.run(statement);
}

/** Outside a transaction, at an API replica's or the monitor's start-up, when several processes may race. */
export async function ensureLiveViewTables(db: SqlExecutor): Promise<void> {
  try {
    await createLiveViewTables(db);
  } catch {
    // Two PostgreSQL processes creating one table at once: one fails on the
    // catalog's unique index although IF NOT EXISTS was given; it exists now.
    await createLiveViewTables(db);
  }
  await indexLivenessByDueTime(db);
}

/**
 * `lost_after_ms` (LEDGER_AGENT_LOST_AFTER_INTERVALS of the host's interval,
 * written with each row) and the index on the time a host falls due, so the
 * liveness monitor reads only the hosts overdue instead of every row. Tables
 * made before the column get it here, and the monitor fills it on its start.
 */
async function indexLivenessByDueTime(db: SqlExecutor): Promise<void> {
  await addColumnIfAbsent(db, 'inv_host_liveness', 'lost_after_ms', 'BIGINT');
  const index = 'CREATE INDEX IF NOT EXISTS inv_host_liveness_by_due ON inv_host_liveness ((last_seen_ms + lost_after_ms))';
  // Two PostgreSQL processes creating it at once, as for the tables above: the second attempt confirms it.
  await db.run(index).catch(() => db.run(index));
}
