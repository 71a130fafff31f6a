import { describeWithService, postgresUnavailable, postgresUrl } from '../../../../test/support/services';
import { InMemoryEventStore } from '../testing/in-memory-event-store';
import { processorRuntimeScenarios } from '../testing/processor-runtime.scenarios';
import { postgresTestDatabases } from '../testing/test-databases';
import { freshPostgresEventStores } from '../testing/postgres-event-stores';

describeWithService('PostgreSQL', postgresUnavailable())('ProcessorRuntime on PostgreSQL read models', () => {
  describe('fed by the in-memory event store', () => {
    processorRuntimeScenarios({ databases: postgresTestDatabases, store: async () => new InMemoryEventStore() });
  });

  describe('fed by the PostgreSQL event store', () => {
    processorRuntimeScenarios({
      databases: postgresTestDatabases,
      store: freshPostgresEventStores('processing_events', postgresUrl()),
    });
  });
});
