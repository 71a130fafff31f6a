import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEventStore } from '@ledger/eventstore';
import { InMemoryEventStore } from '../testing/in-memory-event-store';
import { processorRuntimeScenarios } from '../testing/processor-runtime.scenarios';
import { sqliteTestDatabases } from '../testing/test-databases';

describe('ProcessorRuntime on SQLite read models', () => {
  describe('fed by the in-memory event store', () => {
    processorRuntimeScenarios({ databases: sqliteTestDatabases, store: async () => new InMemoryEventStore() });
  });

  describe('fed by the SQLite event store', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-processing-events-'));
    let stores = 0;
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    processorRuntimeScenarios({
      databases: sqliteTestDatabases,
      store: () => openEventStore({ kind: 'sqlite', file: join(dir, `events-${++stores}.sqlite`) }),
    });
  });
});
