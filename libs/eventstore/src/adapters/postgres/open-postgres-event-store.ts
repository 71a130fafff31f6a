import { Pool } from 'pg';
import type { EventStoreObserver } from '../../event-store-observer';
import { AppendSignal } from '../shared/append-signal';
import { migratePostgres } from './migrate-postgres';
import { PostgresAppendListener } from './postgres-append-listener';
import { PostgresEventStore } from './postgres-event-store';

export interface PostgresEventStoreOptions {
  readonly connectionString: string;
  /** Schema holding the ledger's tables, created when missing (default `public`). */
  readonly schema?: string;
  /** Pool size (default 10). */
  readonly maxConnections?: number;
  /** Told of every append and group commit (the ledger's metrics); none by default. */
  readonly observer?: EventStoreObserver;
}

/** The name goes into a connection option (`-c search_path=…`) and into DDL, so only plain identifiers are accepted. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export async function openPostgresEventStore(options: PostgresEventStoreOptions): Promise<PostgresEventStore> {
  const schema = options.schema ?? 'public';
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(`PostgreSQL schema "${schema}" must be a lower-case identifier (letters, digits, underscores)`);
  }
  const pool = new Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    // Every pooled connection resolves the ledger's tables and function in this schema.
    options: `-c search_path=${schema}`,
  });
  // An idle pooled connection that dies is replaced on next use; without a listener the error would crash the process.
  pool.on('error', () => undefined);
  const appended = new AppendSignal();
  const listener = new PostgresAppendListener({ connectionString: options.connectionString }, schema, () => appended.notify());
  try {
    await migratePostgres(pool, schema);
    await listener.ensureListening();
  } catch (error) {
    await listener.close();
    await pool.end();
    throw error;
  }
  // A verify worker opens the same database and schema over one connection of its own.
  return new PostgresEventStore(pool, listener, appended, options.observer, { kind: 'postgres', connectionString: options.connectionString, schema, maxConnections: 1 });
}
