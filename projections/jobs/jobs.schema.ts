import type { SqlExecutor } from '@ledger/processing';

/**
 * The jobs read model. Portable SQL (SQLite and PostgreSQL); params,
 * evidence and recaps are JSON TEXT, times ISO-8601 TEXT (so they compare as
 * text). `stream_version` makes a redelivered event a no-op: per job for
 * `jobs`, and per host-stream version for `job_host_drivers` (driver facts
 * live on `host-<hostname>`).
 */
const STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS jobs (
    job_id TEXT PRIMARY KEY,
    hostname TEXT NOT NULL,
    kind TEXT NOT NULL,
    params TEXT NOT NULL,
    timeout_seconds INTEGER NOT NULL,
    state TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    agent_boot TEXT,
    requested_at TEXT NOT NULL,
    deadline TEXT NOT NULL,
    requested_position BIGINT NOT NULL,
    dispatched_at TEXT,
    finished_at TEXT,
    code TEXT,
    reason TEXT,
    evidence TEXT,
    driver_fact INTEGER NOT NULL,
    stream_version INTEGER NOT NULL
  )`,
  // The long poll's and jobsWaiting's question: what waits for this host, oldest first.
  'CREATE INDEX IF NOT EXISTS jobs_by_host_state ON jobs (hostname, state, requested_position)',
  // The sweeper's: unfinished jobs by deadline.
  'CREATE INDEX IF NOT EXISTS jobs_by_state_deadline ON jobs (state, deadline)',
  // Listings (newest first) and the long polls' scan for jobs requested on other replicas.
  'CREATE INDEX IF NOT EXISTS jobs_by_position ON jobs (requested_position)',
  `CREATE TABLE IF NOT EXISTS job_host_drivers (
    hostname TEXT NOT NULL,
    driver TEXT NOT NULL,
    status TEXT NOT NULL,
    version TEXT,
    installed_at TEXT,
    recap TEXT,
    last_job_id TEXT NOT NULL,
    last_failure TEXT,
    updated_at TEXT NOT NULL,
    stream_version INTEGER NOT NULL,
    PRIMARY KEY (hostname, driver)
  )`,
];

/** Every table of the read model (the order `reset` empties them in). */
export const JOBS_TABLES = ['job_host_drivers', 'jobs'] as const;

export async function createJobsSchema(tx: SqlExecutor): Promise<void> {
  for (const statement of STATEMENTS) await tx.run(statement);
}

export async function emptyJobsTables(tx: SqlExecutor): Promise<void> {
  for (const table of JOBS_TABLES) await tx.run(`DELETE FROM ${table}`);
}
