import type { WorkflowStepView, WorkflowView } from '@ledger/workflows';
import { followWorkflow, formatWorkflow, formatWorkflowTable, progressLine } from './workflow.command';

const step = (name: string, phase: 'do' | 'compensate', status: WorkflowStepView['status'], extra: Partial<WorkflowStepView> = {}): WorkflowStepView => ({
  step: name,
  phase,
  status,
  attempts: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  sentAt: '2026-01-01T00:00:00.010Z',
  endedAt: '2026-01-01T00:00:00.050Z',
  durationMs: 50,
  evidence: null,
  reason: null,
  code: null,
  ...extra,
});

const view = (status: WorkflowView['status'], steps: WorkflowStepView[], current: string | null = null): WorkflowView & { steps: WorkflowStepView[] } => ({
  name: 'bind',
  id: 'a1',
  subject: null,
  status,
  currentStep: current,
  currentPhase: current ? 'do' : null,
  reason: status === 'compensated' ? 'cancelled by admin: left' : null,
  code: status === 'compensated' ? 'WORKFLOW.CANCELLED' : null,
  unresolved: [],
  startedAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:01.000Z',
  endedAt: status === 'running' ? null : '2026-01-01T00:00:01.000Z',
  steps,
});

describe('ledgerctl workflow', () => {
  it('shows a step history: status, attempts, duration, evidence or reason', () => {
    const text = formatWorkflow(view('compensated', [step('claim', 'do', 'done', { evidence: { handle: 'h1' } }), step('program', 'do', 'failed', { attempts: 2, reason: 'JOB.TIMED_OUT: no result', code: 'JOB.TIMED_OUT' }), step('claim', 'compensate', 'compensated')]));
    expect(text.split('\n')[0]).toBe('workflow bind a1: compensated (cancelled by admin: left)');
    expect(text).toMatch(/claim\s+do\s+done\s+1\s+50 ms\s+\{"handle":"h1"\}/);
    expect(text).toMatch(/program\s+do\s+failed\s+2\s+50 ms\s+JOB.TIMED_OUT: no result/);
    expect(formatWorkflowTable([])).toBe('no workflow instances\n');
  });

  it('names the request a bind works on, in the list and over the step history', () => {
    const bind = { ...view('completed', []), subject: 'arq-0196b3c2-0000-7000-8000-000000000001' };
    expect(formatWorkflowTable([bind]).split('\n')).toEqual([
      'WORKFLOW  ID  SUBJECT                                   STATUS     STEP  STARTED                   ENDED                     REASON',
      'bind      a1  arq-0196b3c2-0000-7000-8000-000000000001  completed  -     2026-01-01T00:00:00.000Z  2026-01-01T00:00:01.000Z  -',
      '',
    ]);
    expect(formatWorkflow(bind).split('\n')[0]).toBe('workflow bind a1 on arq-0196b3c2-0000-7000-8000-000000000001: completed');
  });

  it('names the step in flight and its attempt on the progress line', () => {
    expect(progressLine(view('running', [step('program', 'do', 'retrying', { attempts: 2 })], 'program'))).toBe('bind a1: running, step program (do), attempt 2');
    expect(progressLine(view('completed', []))).toBe('bind a1: completed');
  });

  it('--wait polls until the instance ends, a plain line per change off a terminal', async () => {
    const polled = [view('running', [step('program', 'do', 'running')], 'program'), view('completed', [])];
    const lines: string[] = [];
    const client = { request: async () => polled.shift() as never };
    const ended = await followWorkflow(client, 'bind', 'a1', view('running', [step('claim', 'do', 'running')], 'claim'), (text) => lines.push(text), false, async () => undefined);
    expect(ended.status).toBe('completed');
    expect(lines).toEqual(['bind a1: running, step claim (do)\n', 'bind a1: running, step program (do)\n', 'bind a1: completed\n']);
  });
});
