import { Client } from 'pg';
import { type EventStore, openEventStore } from '@ledger/eventstore';

/**
 * For a suite that runs scenarios on the PostgreSQL event store: each call
 * opens a fresh store in a schema of its own (so scenarios never see each
 * other's events), and every schema the suite made is dropped after it.
 * Call it inside the suite's `describe`.
 */
export function freshPostgresEventStores(prefix: string, connectionString: string): () => Promise<EventStore> {
  const run = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  let stores = 0;
  afterAll(async () => {
    const client = new Client({ connectionString });
    await client.connect();
    try {
      for (let store = 1; store <= stores; store++) await client.query(`DROP SCHEMA IF EXISTS ${run}_${store} CASCADE`);
    } finally {
      await client.end();
    }
  });
  return () => openEventStore({ kind: 'postgres', connectionString, schema: `${run}_${++stores}`, maxConnections: 4 });
}
