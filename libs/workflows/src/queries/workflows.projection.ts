import type { RecordedEvent } from '@ledger/eventstore';
import type { Projection, SqlExecutor } from '@ledger/processing';
import { WORKFLOW_CATEGORY } from '../domain/workflow';
import { failedUndoText, failureText } from '../domain/failure';
import { WorkflowEventTypes } from '../domain/workflow.events';
import { upcastWorkflowEvent } from '../domain/workflow-event-upcast';
import type { WorkflowInput } from '../domain/workflow-input';
import type { DecidedOutput, StepNote } from '../domain/workflow-output';
import { createWorkflowsTables, emptyWorkflowsTables } from './workflows.tables';

/** `workflow-<name>-<id>` → name and id (names have no dash). */
function instanceOf(stream: string): { name: string; id: string } {
  const rest = stream.slice(WORKFLOW_CATEGORY.length + 1);
  const dash = rest.indexOf('-');
  return { name: rest.slice(0, dash), id: rest.slice(dash + 1) };
}

/** The step and phase an output id (`<stream>/<step>/<phase>/<attempt>`) belongs to. */
function stepOfOutput(stream: string, outputId: string): { step: string; phase: string } | undefined {
  const [step, phase] = outputId.slice(stream.length + 1).split('/');
  return phase === 'do' || phase === 'compensate' ? { step, phase } : undefined;
}

/** What a starting input says the instance works on: the stream its starter named, or that of the event that started it. */
function subjectOf(input: WorkflowInput): string | null {
  if (input.kind === 'start') return input.subject ?? null;
  return input.kind === 'event' ? input.stream : null;
}

async function applyNote(tx: SqlExecutor, event: RecordedEvent, note: StepNote): Promise<void> {
  const at = event.recordedAt;
  if (note.outcome === 'skipped') {
    await tx.run(
      `INSERT INTO workflow_steps (stream, step, phase, seq, status, attempts, started_at, ended_at) VALUES ($1, $2, $3, $4, 'skipped', 0, $5, $5)
       ON CONFLICT (stream, step, phase) DO NOTHING`,
      [event.stream, note.step, note.phase, event.version, at],
    );
    return;
  }
  if (note.outcome === 'started') {
    // seq orders a workflow's step rows as they began: the stream version of the first start.
    await tx.run(
      `INSERT INTO workflow_steps (stream, step, phase, seq, status, attempts, started_at) VALUES ($1, $2, $3, $4, 'running', $5, $6)
       ON CONFLICT (stream, step, phase) DO UPDATE SET status = 'running', attempts = excluded.attempts, ended_at = NULL`,
      [event.stream, note.step, note.phase, event.version, note.attempt, at],
    );
    await tx.run('UPDATE workflows SET current_step = $2, current_phase = $3, updated_at = $4 WHERE stream = $1', [event.stream, note.step, note.phase, at]);
    return;
  }
  const status = note.outcome === 'done' ? (note.phase === 'do' ? 'done' : 'compensated') : note.final ? (note.phase === 'do' ? 'failed' : 'compensation-failed') : 'retrying';
  await tx.run(
    'UPDATE workflow_steps SET status = $4, evidence = $5, reason = $6, code = $7, ended_at = $8 WHERE stream = $1 AND step = $2 AND phase = $3',
    [
      event.stream,
      note.step,
      note.phase,
      status,
      note.evidence === undefined ? null : JSON.stringify(note.evidence),
      note.code === undefined || note.reason === undefined ? null : failureText({ code: note.code, reason: note.reason }),
      note.code ?? null,
      status === 'retrying' ? null : event.recordedAt,
    ],
  );
}

async function applyOutput(tx: SqlExecutor, event: RecordedEvent, output: DecidedOutput): Promise<void> {
  if (output.kind === 'step') return applyNote(tx, event, output);
  if (output.kind !== 'complete' && output.kind !== 'fail') return;
  const status = output.kind === 'complete' ? output.outcome : 'failed';
  const { failure } = output;
  // The views read the sentences they always did; the codes beside them.
  const reason = output.kind === 'fail' ? failedUndoText(failure, output.unresolved) : failure && failureText(failure);
  const unresolved = output.kind === 'fail' ? JSON.stringify(output.unresolved.map((entry) => ({ step: entry.step, code: entry.code, reason: failureText(entry) }))) : null;
  await tx.run(
    `UPDATE workflows SET status = $2, reason = $3, code = $4, unresolved = $5, ended_at = $6, updated_at = $6, current_step = NULL, current_phase = NULL WHERE stream = $1`,
    [event.stream, status, reason ?? null, failure?.code ?? null, unresolved, event.recordedAt],
  );
}

async function applyEvent(tx: SqlExecutor, event: RecordedEvent): Promise<void> {
  const fact = upcastWorkflowEvent(event);
  switch (fact.type) {
    case WorkflowEventTypes.inputRecorded: {
      const { name, id } = instanceOf(event.stream);
      await tx.run(
        `INSERT INTO workflows (stream, name, id, subject, status, started_at, updated_at) VALUES ($1, $2, $3, $4, 'running', $5, $5) ON CONFLICT (stream) DO NOTHING`,
        [event.stream, name, id, subjectOf(fact.data.input), event.recordedAt],
      );
      if (fact.data.input.kind === 'retry') await tx.run(`UPDATE workflows SET status = 'running', ended_at = NULL, updated_at = $2 WHERE stream = $1`, [event.stream, event.recordedAt]);
      return;
    }
    case WorkflowEventTypes.outputsDecided:
      for (const output of fact.data.outputs) await applyOutput(tx, event, output);
      return;
    case WorkflowEventTypes.outputSent: {
      const step = stepOfOutput(event.stream, fact.data.outputId);
      if (step) await tx.run('UPDATE workflow_steps SET sent_at = $4 WHERE stream = $1 AND step = $2 AND phase = $3', [event.stream, step.step, step.phase, event.recordedAt]);
      return;
    }
  }
}

/**
 * The `workflows` read model: every instance with its status, current
 * step and subject (the stream it works on, from its first input), and per step and phase (do, compensate) its attempts, when it was
 * started and last sent, how it ended, its evidence or reason (the
 * sentence, `CODE: message`, and the code beside it). Built from the
 * workflow streams alone (the step machine's notes), so it rebuilds.
 * Version 3 added the codes.
 */
export const workflowsProjection: Projection = {
  name: 'workflows',
  version: 3,
  handles: Object.values(WorkflowEventTypes),
  filter: { categories: [WORKFLOW_CATEGORY] },
  setup: createWorkflowsTables,
  reset: emptyWorkflowsTables,
  async apply(events, tx) {
    for (const event of events) await applyEvent(tx, event);
  },
};
