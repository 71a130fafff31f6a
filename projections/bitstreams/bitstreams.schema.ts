import type { SqlExecutor } from '@ledger/processing';

/**
 * The bitstream read model: registered images, trusted keys, and program
 * jobs with what they loaded (the provenance of every region). Portable SQL;
 * JSON as TEXT, times ISO-8601 TEXT. `version` is the stream version a row
 * was last written at: an older event applied again changes nothing.
 */
const STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS bs_bitstreams (
    bitstream_id TEXT PRIMARY KEY,
    sha256 TEXT NOT NULL,
    size_bytes BIGINT NOT NULL,
    function_id TEXT NOT NULL,
    interface_id TEXT NOT NULL,
    vendor TEXT NOT NULL,
    name TEXT,
    origin TEXT NOT NULL,
    signature TEXT NOT NULL,
    registered_at TEXT NOT NULL,
    registered_by TEXT NOT NULL,
    retired_at TEXT,
    retire_reason TEXT,
    version INTEGER NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS bs_bitstreams_by_sha256 ON bs_bitstreams (sha256)',
  `CREATE TABLE IF NOT EXISTS bs_signing_keys (
    key_id TEXT PRIMARY KEY,
    algorithm TEXT NOT NULL,
    public_key_pem TEXT NOT NULL,
    label TEXT,
    trusted_at TEXT NOT NULL,
    revoked_at TEXT,
    version INTEGER NOT NULL
  )`,
  // One row per program job; loaded_at is set once the agent reported the function it read back.
  `CREATE TABLE IF NOT EXISTS bs_program_jobs (
    job_id TEXT PRIMARY KEY,
    hostname TEXT NOT NULL,
    device_uuid TEXT NOT NULL,
    deployable_uuid TEXT NOT NULL,
    region TEXT,
    bitstream_id TEXT,
    project TEXT,
    requested_by TEXT NOT NULL,
    correlation_id TEXT NOT NULL,
    requested_at TEXT NOT NULL,
    loaded_at TEXT,
    function_id TEXT,
    sha256 TEXT,
    previous_function_id TEXT
  )`,
  'CREATE INDEX IF NOT EXISTS bs_program_jobs_by_device ON bs_program_jobs (device_uuid, loaded_at)',
];

/** Every table of the read model (the order `reset` empties them in). */
export const BITSTREAM_TABLES = ['bs_program_jobs', 'bs_signing_keys', 'bs_bitstreams'] as const;

export async function createBitstreamSchema(tx: SqlExecutor): Promise<void> {
  for (const statement of STATEMENTS) await tx.run(statement);
}

export async function emptyBitstreamTables(tx: SqlExecutor): Promise<void> {
  for (const table of BITSTREAM_TABLES) await tx.run(`DELETE FROM ${table}`);
}
