import { Client } from 'pg';
import { openEventStore } from '@ledger/eventstore';
import { describeWithService, postgresUnavailable, postgresUrl } from '../../../../test/support/services';
import { reactorRuntimeScenarios } from '../testing/reactor-runtime.scenarios';
import { postgresTestDatabases } from '../testing/test-databases';

describeWithService('PostgreSQL', postgresUnavailable())('ReactorRuntime on PostgreSQL', () => {
  const run = `reactor_events_${process.pid}_${Date.now().toString(36)}`;
  let stores = 0;
  afterAll(async () => {
    const client = new Client({ connectionString: postgresUrl() });
    await client.connect();
    try {
      for (let store = 1; store <= stores; store++) await client.query(`DROP SCHEMA IF EXISTS ${run}_${store} CASCADE`);
    } finally {
      await client.end();
    }
  });
  reactorRuntimeScenarios({
    databases: postgresTestDatabases,
    store: () => openEventStore({ kind: 'postgres', connectionString: postgresUrl(), schema: `${run}_${++stores}`, maxConnections: 4 }),
  });
});
