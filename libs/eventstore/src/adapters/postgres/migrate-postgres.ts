import type { Pool } from 'pg';
import { GENESIS_HASH } from '../../hash-chain/hash-chain';
import { createSchemaIfMissing } from './create-schema';
import { LEDGER_APPEND_FUNCTION } from './ledger-append.sql';

/** Any constant shared by every ledger process: serializes concurrent migrations. */
const MIGRATION_LOCK = 7_468_113_520_431;

/**
 * Creates the schema, tables and function if missing. Idempotent, and safe
 * when several replicas start at once: the transaction-scoped advisory lock
 * makes them take turns (concurrent CREATE … IF NOT EXISTS or CREATE OR
 * REPLACE FUNCTION can otherwise fail with "tuple concurrently updated").
 *
 * `recorded_at` stays text: the exact ISO string the hash was computed over.
 */
export async function migratePostgres(pool: Pool, schema: string): Promise<void> {
  const client = await pool.connect();
  try {
    await createSchemaIfMissing(client, schema);
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ledger_events (
        position    bigint PRIMARY KEY,
        id          text NOT NULL UNIQUE,
        stream      text NOT NULL,
        version     integer NOT NULL,
        type        text NOT NULL,
        recorded_at text NOT NULL,
        data        jsonb NOT NULL,
        metadata    jsonb NOT NULL,
        prev_hash   text NOT NULL,
        hash        text NOT NULL,
        UNIQUE (stream, version)
      )`);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ledger_head (
        id       integer PRIMARY KEY CHECK (id = 1),
        position bigint NOT NULL,
        hash     text NOT NULL
      )`);
    await client.query(`INSERT INTO ledger_head (id, position, hash) VALUES (1, 0, '${GENESIS_HASH}') ON CONFLICT (id) DO NOTHING`);
    await client.query(LEDGER_APPEND_FUNCTION);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
