import { failedUndoText } from './failure';
import { failureOfText, upcastWorkflowEvent } from './workflow-event-upcast';
import type { DecidedOutput } from './workflow-output';

const decided = (outputs: readonly unknown[], schemaVersion: number) => ({ type: 'workflow.OutputsDecided', data: { inputId: 'i1', outputs }, metadata: { schemaVersion } });
const outputsOf = (event: ReturnType<typeof upcastWorkflowEvent>): readonly DecidedOutput[] => (event.type === 'workflow.OutputsDecided' ? event.data.outputs : []);

describe('reading a workflow event recorded when failures were sentences (OutputsDecided, schema version 1)', () => {
  it('reads a failure sentence as its code and reason; the workflow’s own (a timeout, a cancel) by their sentence', () => {
    expect(failureOfText('JOB.AGENT_UNAVAILABLE: no agent: compute-1')).toEqual({ code: 'JOB.AGENT_UNAVAILABLE', reason: 'no agent: compute-1' });
    expect(failureOfText('timed out after 600000 ms')).toEqual({ code: 'WORKFLOW.STEP_TIMED_OUT', reason: 'timed out after 600000 ms' });
    expect(failureOfText('cancelled by admin: the tenant left')).toEqual({ code: 'WORKFLOW.CANCELLED', reason: 'cancelled by admin: the tenant left' });
    expect(failureOfText('REJECTED: refused')).toEqual({ code: 'WORKFLOW.STEP_FAILED', reason: 'REJECTED: refused' });
  });

  it('turns each failure of a decision into data: a step note, a compensated end, a failed end and what it could not undo', () => {
    const outputs = [
      { kind: 'step', step: 'claim', phase: 'do', outcome: 'failed', attempt: 1, final: true, reason: 'INVENTORY.NO_FREE_ATTACH_HANDLE: none free' },
      { kind: 'step', step: 'claim', phase: 'do', outcome: 'done', attempt: 2, evidence: { ok: true } },
      { kind: 'complete', outcome: 'compensated', reason: 'cancelled by admin: left' },
      { kind: 'fail', reason: 'could not undo program (AGENT.BROKE: it broke) after timed out after 5 ms', unresolved: [{ step: 'program', reason: 'AGENT.BROKE: it broke' }] },
    ];
    expect(outputsOf(upcastWorkflowEvent(decided(outputs, 1)))).toEqual([
      { kind: 'step', step: 'claim', phase: 'do', outcome: 'failed', attempt: 1, final: true, code: 'INVENTORY.NO_FREE_ATTACH_HANDLE', reason: 'none free' },
      outputs[1],
      { kind: 'complete', outcome: 'compensated', failure: { code: 'WORKFLOW.CANCELLED', reason: 'cancelled by admin: left' } },
      { kind: 'fail', failure: { code: 'WORKFLOW.STEP_TIMED_OUT', reason: 'timed out after 5 ms' }, unresolved: [{ step: 'program', code: 'AGENT.BROKE', reason: 'it broke' }] },
    ]);
  });

  it('finds what stopped a failed workflow whether its undo read "(the same reason)" or, written before that, repeated it', () => {
    const unresolved = [{ step: 'program', reason: 'DEMO.NO: no' }];
    for (const reason of ['could not undo program (the same reason) after DEMO.NO: no', 'could not undo program (DEMO.NO: no) after DEMO.NO: no']) {
      const [fail] = outputsOf(upcastWorkflowEvent(decided([{ kind: 'fail', reason, unresolved }], 1)));
      expect(fail).toEqual({ kind: 'fail', failure: { code: 'DEMO.NO', reason: 'no' }, unresolved: [{ step: 'program', code: 'DEMO.NO', reason: 'no' }] });
    }
    // Read back as data, it reads as it was written (today's sentence).
    const [fail] = outputsOf(upcastWorkflowEvent(decided([{ kind: 'fail', reason: 'could not undo program (the same reason) after DEMO.NO: no', unresolved }], 1)));
    expect(fail.kind === 'fail' && failedUndoText(fail.failure, fail.unresolved)).toBe('could not undo program (the same reason) after DEMO.NO: no');
  });

  it('leaves today’s events as they are', () => {
    const today = [{ kind: 'step', step: 'claim', phase: 'do', outcome: 'failed', attempt: 1, final: true, code: 'DEMO.NO', reason: 'no: not now' }];
    expect(outputsOf(upcastWorkflowEvent(decided(today, 2)))).toEqual(today);
    const input = { type: 'workflow.InputRecorded', data: { input: { kind: 'cancel', id: 'c1', at: 'now', by: 'admin', reason: 'X.Y: z' } }, metadata: { schemaVersion: 1 } };
    expect(upcastWorkflowEvent(input)).toEqual({ type: input.type, data: input.data });
  });
});
