import { createVersionedTables, type SqlExecutor, type VersionedTables } from '@ledger/processing';

const TABLES = [
  `CREATE TABLE IF NOT EXISTS workflows (
     stream TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     id TEXT NOT NULL,
     subject TEXT,
     status TEXT NOT NULL,
     current_step TEXT,
     current_phase TEXT,
     reason TEXT,
     code TEXT,
     unresolved TEXT,
     started_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     ended_at TEXT
   )`,
  'CREATE INDEX IF NOT EXISTS workflows_by_name_status ON workflows (name, status)',
  'CREATE INDEX IF NOT EXISTS workflows_by_subject ON workflows (subject)',
  `CREATE TABLE IF NOT EXISTS workflow_steps (
     stream TEXT NOT NULL,
     step TEXT NOT NULL,
     phase TEXT NOT NULL,
     seq INTEGER NOT NULL,
     status TEXT NOT NULL,
     attempts INTEGER NOT NULL,
     started_at TEXT NOT NULL,
     sent_at TEXT,
     ended_at TEXT,
     evidence TEXT,
     reason TEXT,
     code TEXT,
     PRIMARY KEY (stream, step, phase)
   )`,
];

/** Version 2 added `subject`; 3 the failures' `code`. */
const SCHEMA: VersionedTables = { versionTable: 'wf_schema', version: 3, tables: ['workflow_steps', 'workflows'], statements: TABLES };

export async function createWorkflowsTables(tx: SqlExecutor): Promise<void> {
  await createVersionedTables(tx, SCHEMA);
}

export async function emptyWorkflowsTables(tx: SqlExecutor): Promise<void> {
  await tx.run('DELETE FROM workflow_steps');
  await tx.run('DELETE FROM workflows');
}
