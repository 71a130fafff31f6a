import type { ClientBase } from 'pg';

/** SQLSTATEs of a schema created by another session in between: CREATE SCHEMA IF NOT EXISTS is not race-free. */
const SCHEMA_ALREADY_CREATED = new Set(['23505', '42P06']);

/**
 * Creates a schema unless it exists, also when another session (a replica, or
 * the read-model database of the same process) creates it at the same moment.
 * Run it outside a transaction: a failed statement would abort one.
 */
export async function createSchemaIfMissing(client: ClientBase, schema: string): Promise<void> {
  await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`).catch((error: { code?: string }) => {
    if (!SCHEMA_ALREADY_CREATED.has(error.code ?? '')) throw error;
  });
}
