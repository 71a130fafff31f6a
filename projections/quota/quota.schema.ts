import type { SqlExecutor } from '@ledger/processing';

/**
 * The quota read model. Portable SQL (SQLite and PostgreSQL); a
 * reservation's resources are canonical-JSON TEXT, times ISO-8601 TEXT.
 * `quota_projects.stream_version` is the last quota-stream version applied
 * per project: it makes applying an event twice a no-op. Amounts are BIGINT
 * because limits go up to 2^53-1 (PostgreSQL returns them as strings; the
 * queries convert).
 */
const STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS quota_projects (
    project TEXT PRIMARY KEY,
    stream_version INTEGER NOT NULL
  )`,
  // "limit" is an SQL keyword, hence limit_value.
  `CREATE TABLE IF NOT EXISTS quota_limits (
    project TEXT NOT NULL,
    resource TEXT NOT NULL,
    limit_value BIGINT NOT NULL,
    PRIMARY KEY (project, resource)
  )`,
  `CREATE TABLE IF NOT EXISTS quota_reservations (
    project TEXT NOT NULL,
    consumer_id TEXT NOT NULL,
    resources TEXT NOT NULL,
    reserved_at TEXT NOT NULL,
    PRIMARY KEY (project, consumer_id)
  )`,
  'CREATE INDEX IF NOT EXISTS quota_reservations_by_time ON quota_reservations (reserved_at, project, consumer_id)',
  // Totals kept by the projection rather than summed from the JSON above: JSON functions differ between the engines.
  `CREATE TABLE IF NOT EXISTS quota_usage (
    project TEXT NOT NULL,
    resource TEXT NOT NULL,
    used BIGINT NOT NULL,
    PRIMARY KEY (project, resource)
  )`,
];

/** Every table of the read model (the order `reset` empties them in). */
export const QUOTA_TABLES = ['quota_usage', 'quota_reservations', 'quota_limits', 'quota_projects'] as const;

export async function createQuotaSchema(tx: SqlExecutor): Promise<void> {
  for (const statement of STATEMENTS) await tx.run(statement);
}

export async function emptyQuotaTables(tx: SqlExecutor): Promise<void> {
  for (const table of QUOTA_TABLES) await tx.run(`DELETE FROM ${table}`);
}
