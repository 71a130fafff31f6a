import { describeWithService, postgresUnavailable, postgresUrl } from '../../../../test/support/services';
import { reactorRuntimeScenarios } from '../testing/reactor-runtime.scenarios';
import { postgresTestDatabases } from '../testing/test-databases';
import { freshPostgresEventStores } from '../testing/postgres-event-stores';

describeWithService('PostgreSQL', postgresUnavailable())('ReactorRuntime on PostgreSQL', () => {
  reactorRuntimeScenarios({
    databases: postgresTestDatabases,
    store: freshPostgresEventStores('reactor_events', postgresUrl()),
  });
});
