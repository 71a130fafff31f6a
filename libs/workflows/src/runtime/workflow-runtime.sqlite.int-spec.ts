import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEventStore } from '@ledger/eventstore';
import { sqliteTestDatabases } from '@ledger/processing/testing';
import { workflowRuntimeScenarios } from '../testing/workflow-runtime.scenarios';

describe('WorkflowRuntime on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-workflow-events-'));
  let stores = 0;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  workflowRuntimeScenarios({
    databases: sqliteTestDatabases,
    store: () => openEventStore({ kind: 'sqlite', file: join(dir, `events-${++stores}.sqlite`) }),
  });
});
