import { Client } from 'pg';
import { openEventStore } from '@ledger/eventstore';
import { postgresTestDatabases } from '@ledger/processing/testing';
import { describeWithService, postgresUnavailable, postgresUrl } from '../../../../test/support/services';
import { workflowRuntimeScenarios } from '../testing/workflow-runtime.scenarios';

describeWithService('PostgreSQL', postgresUnavailable())('WorkflowRuntime on PostgreSQL', () => {
  const run = `workflow_events_${process.pid}_${Date.now().toString(36)}`;
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
  workflowRuntimeScenarios({
    databases: postgresTestDatabases,
    store: () => openEventStore({ kind: 'postgres', connectionString: postgresUrl(), schema: `${run}_${++stores}`, maxConnections: 4 }),
  });
});
