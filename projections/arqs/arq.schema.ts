import { createVersionedTables, type SqlExecutor } from '@ledger/processing';

/**
 * The accelerator-request read model that /v2/accelerator_requests serves.
 * A deleted request's row is removed (Cyborg deletes hard); `stream_version`
 * makes applying an event twice a no-op. `attach_handle_info` is canonical
 * JSON TEXT, times ISO-8601 TEXT.
 */
const STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS arq_requests (
    uuid TEXT PRIMARY KEY,
    project_id TEXT NOT NULL,
    state TEXT NOT NULL,
    device_profile_uuid TEXT NOT NULL,
    device_profile_name TEXT NOT NULL,
    device_profile_group_id INTEGER NOT NULL,
    resource_class TEXT NOT NULL,
    hostname TEXT,
    device_rp_uuid TEXT,
    instance_uuid TEXT,
    device_uuid TEXT,
    deployable_uuid TEXT,
    attach_handle_uuid TEXT,
    attach_handle_type TEXT NOT NULL DEFAULT '',
    attach_handle_info TEXT NOT NULL DEFAULT '{}',
    failure TEXT,
    last_bind_id TEXT,
    stream_version INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT
  )`,
  'CREATE INDEX IF NOT EXISTS arq_requests_by_project ON arq_requests (project_id, created_at, uuid)',
  'CREATE INDEX IF NOT EXISTS arq_requests_by_instance ON arq_requests (instance_uuid)',
  'CREATE INDEX IF NOT EXISTS arq_requests_by_profile ON arq_requests (device_profile_uuid)',
  'CREATE INDEX IF NOT EXISTS arq_requests_by_state ON arq_requests (state, updated_at)',
  // Nova's outbox lived here until the Nova notifier became a reactor (its pending work is its
  // checkpoint now, which no rebuild of this projection resets); a database from before drops it.
  'DROP TABLE IF EXISTS arq_nova_outbox',
];

export const ARQ_TABLES = ['arq_requests'] as const;

/** Version 2 added `last_bind_id`. */
const SCHEMA_VERSION = 2;

export async function createArqSchema(tx: SqlExecutor): Promise<void> {
  await createVersionedTables(tx, { versionTable: 'arq_schema', version: SCHEMA_VERSION, tables: ARQ_TABLES, statements: STATEMENTS });
}

export async function emptyArqTables(tx: SqlExecutor): Promise<void> {
  for (const table of ARQ_TABLES) await tx.run(`DELETE FROM ${table}`);
}
