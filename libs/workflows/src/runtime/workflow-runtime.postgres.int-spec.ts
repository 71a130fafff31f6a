import { freshPostgresEventStores, postgresTestDatabases } from '@ledger/processing/testing';
import { describeWithService, postgresUnavailable, postgresUrl } from '../../../../test/support/services';
import { workflowRuntimeScenarios } from '../testing/workflow-runtime.scenarios';

describeWithService('PostgreSQL', postgresUnavailable())('WorkflowRuntime on PostgreSQL', () => {
  workflowRuntimeScenarios({
    databases: postgresTestDatabases,
    store: freshPostgresEventStores('workflow_events', postgresUrl()),
  });
});
