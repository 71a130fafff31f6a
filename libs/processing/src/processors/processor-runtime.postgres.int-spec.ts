import { Client } from 'pg';
import { openEventStore } from '@ledger/eventstore';
import { describeWithService, postgresUnavailable, postgresUrl } from '../../../../test/support/services';
import { InMemoryEventStore } from '../testing/in-memory-event-store';
import { processorRuntimeScenarios } from '../testing/processor-runtime.scenarios';
import { postgresTestDatabases } from '../testing/test-databases';

describeWithService('PostgreSQL', postgresUnavailable())('ProcessorRuntime on PostgreSQL read models', () => {
  describe('fed by the in-memory event store', () => {
    processorRuntimeScenarios({ databases: postgresTestDatabases, store: async () => new InMemoryEventStore() });
  });

  describe('fed by the PostgreSQL event store', () => {
    const run = `processing_events_${process.pid}_${Date.now().toString(36)}`;
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
    processorRuntimeScenarios({
      databases: postgresTestDatabases,
      store: () => openEventStore({ kind: 'postgres', connectionString: postgresUrl(), schema: `${run}_${++stores}`, maxConnections: 4 }),
    });
  });
});
