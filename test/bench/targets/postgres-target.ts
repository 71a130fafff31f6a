import { Client } from 'pg';
import { openEventStore } from '@ledger/eventstore';
import { openPostgresSqlDatabase } from '@ledger/processing';
import type { BenchTarget } from './bench-target';
import { Closers } from './closers';
import { openPostgresPlainTable } from './postgres-plain-table';

/**
 * PostgreSQL: every store, read model and plain table gets a fresh schema
 * (`bench_<pid>_<run>_<n>`), dropped at the end. Resolves to a reason
 * string instead when the server cannot be reached.
 */
export async function openPostgresTarget(connectionString: string, onCloseError: (error: unknown) => void): Promise<BenchTarget | string> {
  const admin = new Client({ connectionString, connectionTimeoutMillis: 3000 });
  admin.on('error', () => undefined);
  try {
    await admin.connect();
  } catch (error) {
    return `${(error as Error).message || String(error)}`;
  }
  const closers = new Closers();
  closers.defer(() => admin.end());
  const run = Date.now().toString(36);
  let schemas = 0;
  const freshSchema = (): string => {
    closers.assertOpen();
    const schema = `bench_${process.pid}_${run}_${++schemas}`;
    // Registered before the objects using it, so it is dropped after they are closed.
    closers.defer(async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    });
    return schema;
  };
  return {
    name: 'postgres',
    openEventStore: async (_label, observer) => closers.add(await openEventStore({ kind: 'postgres', connectionString, schema: freshSchema(), observer })),
    openReadModel: async () => closers.add(await openPostgresSqlDatabase({ connectionString, schema: freshSchema() })),
    openPlainTable: async () => closers.add(await openPostgresPlainTable(connectionString, freshSchema())),
    close: () => closers.closeAll(onCloseError),
  };
}
