import { GroupCommit } from '@ledger/kernel';
import type { SqlDatabase, SqlExecutor } from '@ledger/processing';

/**
 * Durable timers live beside the checkpoints (not in a read model: no
 * projection reset may lose one). A row is written when a `schedule` output
 * is sent and deleted once its `timer` input is recorded.
 */
export async function ensureWorkflowTimersTable(db: SqlExecutor): Promise<void> {
  await db.run(`CREATE TABLE IF NOT EXISTS workflow_timers (
    output_id TEXT PRIMARY KEY,
    workflow TEXT NOT NULL,
    stream TEXT NOT NULL,
    timer_key TEXT NOT NULL,
    due_at BIGINT NOT NULL
  )`);
}

export interface DueTimer {
  readonly outputId: string;
  readonly stream: string;
  readonly key: string;
  readonly dueAt: number;
}

type TimerWrite = { readonly workflow: string; readonly schedule: DueTimer } | { readonly drop: string };

/**
 * Every decision of a step writes a timer and the step's end drops it; one
 * transaction (and fsync) each would cost more than the step. The writes
 * of the instances advancing at once are committed together, each still
 * durable before its caller goes on (a timer before the decision that
 * needs it is appended).
 */
export class WorkflowTimerWrites {
  private readonly group: GroupCommit<TimerWrite, void>;

  constructor(db: SqlDatabase) {
    this.group = new GroupCommit((writes) =>
      db.transaction(async (tx) => {
        for (const write of writes) await ('drop' in write ? deleteTimer(tx, write.drop) : scheduleTimer(tx, write.workflow, write.schedule));
        return writes.map(() => ({ result: undefined }));
      }),
    );
  }

  schedule(workflow: string, timer: DueTimer): Promise<void> {
    return this.group.submit({ workflow, schedule: timer });
  }

  drop(outputId: string): Promise<void> {
    return this.group.submit({ drop: outputId });
  }
}

export async function scheduleTimer(db: SqlExecutor, workflow: string, timer: DueTimer): Promise<void> {
  await db.run(
    `INSERT INTO workflow_timers (output_id, workflow, stream, timer_key, due_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (output_id) DO NOTHING`,
    [timer.outputId, workflow, timer.stream, timer.key, timer.dueAt],
  );
}

export async function dueTimers(db: SqlExecutor, workflow: string, now: number, max = 100): Promise<DueTimer[]> {
  const rows = await db.all<{ output_id: string; stream: string; timer_key: string; due_at: number | string }>(
    'SELECT output_id, stream, timer_key, due_at FROM workflow_timers WHERE workflow = $1 AND due_at <= $2 ORDER BY due_at, output_id LIMIT $3',
    [workflow, now, max],
  );
  return rows.map((row) => ({ outputId: row.output_id, stream: row.stream, key: row.timer_key, dueAt: Number(row.due_at) }));
}

export async function deleteTimer(db: SqlExecutor, outputId: string): Promise<void> {
  await db.run('DELETE FROM workflow_timers WHERE output_id = $1', [outputId]);
}
