import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEventStore } from '@ledger/eventstore';
import { InMemoryEventStore } from '../testing/in-memory-event-store';
import { reactorRuntimeScenarios } from '../testing/reactor-runtime.scenarios';
import { sqliteTestDatabases } from '../testing/test-databases';

describe('ReactorRuntime on SQLite', () => {
  describe('fed by the in-memory event store', () => {
    reactorRuntimeScenarios({ databases: sqliteTestDatabases, store: async () => new InMemoryEventStore() });
  });

  describe('fed by the SQLite event store', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-reactor-events-'));
    let stores = 0;
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    reactorRuntimeScenarios({
      databases: sqliteTestDatabases,
      store: () => openEventStore({ kind: 'sqlite', file: join(dir, `events-${++stores}.sqlite`) }),
    });
  });
});
