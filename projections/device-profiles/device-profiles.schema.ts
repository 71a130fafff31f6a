import type { SqlExecutor } from '@ledger/processing';

/**
 * The device-profile read model that /v2/device_profiles serves. A deleted
 * profile's row is removed (Cyborg deletes hard). `groups` is the stored
 * groups as JSON TEXT, times ISO-8601 TEXT; `updated_at` stays NULL because
 * profiles never change.
 */
const STATEMENTS = [
  `CREATE TABLE IF NOT EXISTS dp_profiles (
    uuid TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    description TEXT,
    groups TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT
  )`,
  'CREATE INDEX IF NOT EXISTS dp_profiles_by_creation ON dp_profiles (created_at, name)',
];

export const DEVICE_PROFILE_TABLES = ['dp_profiles'] as const;

export async function createDeviceProfileSchema(tx: SqlExecutor): Promise<void> {
  for (const statement of STATEMENTS) await tx.run(statement);
}

export async function emptyDeviceProfileTables(tx: SqlExecutor): Promise<void> {
  for (const table of DEVICE_PROFILE_TABLES) await tx.run(`DELETE FROM ${table}`);
}
