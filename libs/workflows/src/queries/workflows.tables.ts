import type { SqlExecutor } from '@ledger/processing';

const TABLES = [
  `CREATE TABLE IF NOT EXISTS workflows (
     stream TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     id TEXT NOT NULL,
     status TEXT NOT NULL,
     current_step TEXT,
     current_phase TEXT,
     reason TEXT,
     unresolved TEXT,
     started_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     ended_at TEXT
   )`,
  'CREATE INDEX IF NOT EXISTS workflows_by_name_status ON workflows (name, status)',
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
     PRIMARY KEY (stream, step, phase)
   )`,
];

export async function createWorkflowsTables(tx: SqlExecutor): Promise<void> {
  for (const sql of TABLES) await tx.run(sql);
}

export async function emptyWorkflowsTables(tx: SqlExecutor): Promise<void> {
  await tx.run('DELETE FROM workflow_steps');
  await tx.run('DELETE FROM workflows');
}
