import { decodePageCursor, encodePageCursor, pageLimitOf } from '@ledger/kernel';
import type { SqlExecutor } from '@ledger/processing';
import type { WorkflowStatus } from '../domain/workflow-record';

export interface WorkflowStepView {
  readonly step: string;
  readonly phase: 'do' | 'compensate';
  readonly status: 'running' | 'retrying' | 'done' | 'skipped' | 'failed' | 'compensated' | 'compensation-failed';
  /** Attempts made (1 when it succeeded the first time). */
  readonly attempts: number;
  readonly startedAt: string;
  /** When its latest attempt was sent. */
  readonly sentAt: string | null;
  readonly endedAt: string | null;
  readonly durationMs: number | null;
  readonly evidence: unknown;
  /** Why its latest attempt failed: `CODE: message` (a timeout: `timed out after … ms`). */
  readonly reason: string | null;
  /** The code of that failure (`JOB.AGENT_UNAVAILABLE`, `WORKFLOW.STEP_TIMED_OUT`). */
  readonly code: string | null;
}

/** A compensation given up: the step, the code and the sentence of why. */
export interface WorkflowUnresolvedView {
  readonly step: string;
  readonly code: string;
  readonly reason: string;
}

export interface WorkflowView {
  readonly name: string;
  readonly id: string;
  /** The stream it works on (`arq-<uuid>` for a bind, `host-<hostname>` for a provisioning), or null when its start did not record one. */
  readonly subject: string | null;
  readonly status: WorkflowStatus;
  readonly currentStep: string | null;
  readonly currentPhase: string | null;
  /** On `compensated` and `failed`: why it stopped, as a sentence. */
  readonly reason: string | null;
  /** The code of what stopped it (the step given up, `WORKFLOW.CANCELLED`). */
  readonly code: string | null;
  /** On `failed`: the compensations given up, and why. */
  readonly unresolved: readonly WorkflowUnresolvedView[];
  readonly startedAt: string;
  readonly updatedAt: string;
  readonly endedAt: string | null;
}

/** A list's query that is not one the API takes (limit, cursor, status). */
export const WORKFLOW_INVALID = 'WORKFLOW.INVALID';

export interface WorkflowFilter {
  readonly name?: string;
  readonly status?: WorkflowStatus;
  /** Only the instances that work on this stream (`arq-<uuid>`). */
  readonly subject?: string;
  /** 1–1000, default 100. */
  readonly limit?: number;
  /** `nextCursor` of the previous page. */
  readonly cursor?: string;
}

export interface WorkflowPage {
  readonly items: WorkflowView[];
  /** Null on the last page. */
  readonly nextCursor: string | null;
}

type WorkflowRow = Record<
  'name' | 'id' | 'subject' | 'status' | 'current_step' | 'current_phase' | 'reason' | 'code' | 'unresolved' | 'started_at' | 'updated_at' | 'ended_at',
  string | null
>;
type StepRow = Record<'step' | 'phase' | 'status' | 'started_at' | 'sent_at' | 'ended_at' | 'evidence' | 'reason' | 'code', string | null> & { attempts: number | string };

const toView = (row: WorkflowRow): WorkflowView => ({
  name: row.name!,
  id: row.id!,
  subject: row.subject,
  status: row.status as WorkflowStatus,
  currentStep: row.current_step,
  currentPhase: row.current_phase,
  reason: row.reason,
  code: row.code,
  unresolved: row.unresolved ? JSON.parse(row.unresolved) : [],
  startedAt: row.started_at!,
  updatedAt: row.updated_at!,
  endedAt: row.ended_at,
});

const toStep = (row: StepRow): WorkflowStepView => ({
  step: row.step!,
  phase: row.phase as WorkflowStepView['phase'],
  status: row.status as WorkflowStepView['status'],
  attempts: Number(row.attempts),
  startedAt: row.started_at!,
  sentAt: row.sent_at,
  endedAt: row.ended_at,
  durationMs: row.ended_at ? Date.parse(row.ended_at) - Date.parse(row.started_at!) : null,
  evidence: row.evidence === null ? null : JSON.parse(row.evidence),
  reason: row.reason,
  code: row.code,
});

/** Reads of the `workflows` projection. */
export class WorkflowQueries {
  constructor(private readonly db: SqlExecutor) {}

  /** Instances per workflow, status and current step (null once none is running), for metrics: one GROUP BY. */
  async counts(): Promise<{ name: string; status: string; step: string | null; instances: number }[]> {
    const rows = await this.db.all<{ name: string; status: string; current_step: string | null; instances: number | string }>(
      'SELECT name, status, current_step, COUNT(*) AS instances FROM workflows GROUP BY name, status, current_step',
    );
    return rows.map((row) => ({ name: row.name, status: row.status, step: row.current_step ?? null, instances: Number(row.instances) }));
  }

  /** Newest first, `limit` (1–1000, default 100) at a time; `nextCursor` asks for the page after. */
  async list(filter: WorkflowFilter = {}): Promise<WorkflowPage> {
    const limit = pageLimitOf(filter.limit, WORKFLOW_INVALID);
    const conditions: string[] = [];
    const params: unknown[] = [limit + 1];
    const where = (sql: string, ...values: unknown[]) => {
      conditions.push(sql.replace(/\?/g, () => `$${params.push(values.shift())}`));
    };
    if (filter.name !== undefined) where('name = ?', filter.name);
    if (filter.status !== undefined) where('status = ?', filter.status);
    if (filter.subject !== undefined) where('subject = ?', filter.subject);
    const after = decodePageCursor(filter.cursor, 2, WORKFLOW_INVALID);
    if (after) where('(started_at < ? OR (started_at = ? AND stream < ?))', after[0], after[0], after[1]);
    const rows = await this.db.all<WorkflowRow & { stream: string }>(
      `SELECT * FROM workflows ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''} ORDER BY started_at DESC, stream DESC LIMIT $1`,
      params,
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { items: page.map(toView), nextCursor: rows.length > limit && last ? encodePageCursor([last.started_at!, last.stream]) : null };
  }

  /** One instance with its steps in the order they began (compensations after the steps), or undefined. */
  async get(name: string, id: string): Promise<(WorkflowView & { steps: WorkflowStepView[] }) | undefined> {
    const row = await this.db.get<WorkflowRow & { stream: string }>('SELECT * FROM workflows WHERE name = $1 AND id = $2', [name, id]);
    if (!row) return undefined;
    const steps = await this.db.all<StepRow>('SELECT * FROM workflow_steps WHERE stream = $1 ORDER BY seq', [row.stream]);
    return { ...toView(row), steps: steps.map(toStep) };
  }
}
