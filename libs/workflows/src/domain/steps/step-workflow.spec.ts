import { DEMO_STEP_TIMEOUT_MS, demoWorkflow } from '../../testing/demo-workflow';
import { workflowSpec } from '../../testing/workflow-spec';
import type { WorkflowInput } from '../workflow-input';
import type { WorkflowOutput } from '../workflow-output';
import { failedUndoText } from '../failure';
import { defineStepWorkflow } from './step-workflow';
import { stepWhen } from './step-when';

const T0 = '2026-01-01T00:00:00.000Z';
const at = (ms: number): string => new Date(Date.parse(T0) + ms).toISOString();
const due = (ms: number): string => at(ms + DEMO_STEP_TIMEOUT_MS);

const placed: WorkflowInput = { kind: 'event', id: 'e1', at: T0, type: 'demo.OrderPlaced', stream: 'order-o1', data: { orderId: 'o1', hostname: 'h1' } };
const accepted = (key: string, ms = 1): WorkflowInput => ({ kind: 'reply', id: `reply:${key}`, at: at(ms), key, outcome: 'accepted' });
const rejected = (key: string, ms = 1): WorkflowInput => ({ kind: 'reply', id: `reply:${key}`, at: at(ms), key, outcome: 'rejected', error: { code: 'DEMO.NO', message: 'no' } });
/** The jobs context's result of the job of attempt `key`, with the origin the workflow recorded on the request. */
const jobFinished = (key: string, ok: boolean, ms = 2, workflow = 'demo'): WorkflowInput => ({
  kind: 'event',
  id: `job:${key}:${ok}`,
  at: at(ms),
  type: ok ? 'jobs.JobCompleted' : 'jobs.JobFailed',
  stream: 'job-1',
  data: ok
    ? { jobId: 'j1', origin: { workflow, workflowId: 'o1', key }, evidence: { key } }
    : { jobId: 'j1', origin: { workflow, workflowId: 'o1', key }, code: 'AGENT.BROKE', reason: `agent failed ${key}`, evidence: { key } },
});
const timer = (key: string, ms: number): WorkflowInput => ({ kind: 'timer', id: `timer:${key}`, at: at(ms), key: `${key}/timeout` });

const sent = (outputs: readonly WorkflowOutput[]): string[] => outputs.filter((output) => output.kind === 'command' || output.kind === 'job').map((output) => (output as { key: string }).key);

/** Inputs that take the demo through reserve and program. */
const throughProgram = [placed, accepted('reserve/do/1'), accepted('program/do/1'), jobFinished('program/do/1', true)];

describe('the step machine (demo workflow)', () => {
  const spec = workflowSpec(demoWorkflow);

  it('starts the first step when the starting event arrives; a command, settled by its port’s answer, needs no timer', () => {
    spec.given([]).when(placed).then([
      { kind: 'step', step: 'reserve', phase: 'do', outcome: 'started', attempt: 1 },
      { kind: 'command', key: 'reserve/do/1', command: { type: 'demo.Reserve', data: { orderId: 'o1' } } },
    ]);
  });

  it('gives a job its timeout: its result comes later, or never', () => {
    expect(spec.given([placed]).when(accepted('reserve/do/1')).outputs.at(-1)).toEqual({ kind: 'schedule', key: 'program/do/1/timeout', dueAt: due(1) });
    const done = spec.given([placed, accepted('reserve/do/1'), accepted('program/do/1')]).when(jobFinished('program/do/1', true));
    expect(done.outputs.filter((output) => output.kind === 'unschedule')).toEqual([{ kind: 'unschedule', key: 'program/do/1/timeout' }]);
  });

  it('gives a command its timeout when its step waits for an event after the answer (doneWhen)', () => {
    const waiting = defineStepWorkflow<{ id: string }>({
      name: 'waits',
      routes: [],
      start: (input) => (input.kind === 'start' ? (input.data as { id: string }) : undefined),
      steps: [
        {
          name: 'ask',
          do: ({ data }) => ({ kind: 'command', command: { type: 'demo.Ask', data } }),
          doneWhen: (input) => (input.kind === 'event' && input.type === 'demo.Answered' ? { done: true } : undefined),
          timeoutMs: 1_000,
          retry: { maxAttempts: 1 },
        },
      ],
    });
    const started = workflowSpec(waiting).given([]).when({ kind: 'start', id: 's1', at: T0, data: { id: 'w1' } });
    expect(started.outputs.at(-1)).toEqual({ kind: 'schedule', key: 'ask/do/1/timeout', dueAt: at(1_000) });
  });

  it('runs every step in order and completes, a job step waiting for the agent’s evidence', () => {
    expect(sent(spec.given([placed]).when(accepted('reserve/do/1')).outputs)).toEqual(['program/do/1']);
    expect(spec.given([placed, accepted('reserve/do/1')]).when(accepted('program/do/1')).outputs).toEqual([]);
    const bound = spec.given(throughProgram).when(accepted('bind/do/1'));
    expect(bound.outputs).toEqual([
      { kind: 'step', step: 'bind', phase: 'do', outcome: 'done', attempt: 1, evidence: undefined },
      { kind: 'complete', outcome: 'completed' },
    ]);
    expect(bound.state).toMatchObject({ phase: 'completed', done: ['reserve', 'program', 'bind'], evidence: { program: { key: 'program/do/1' } } });
  });

  it('retries a rejected action, then gives it up and compensates exactly the steps done, newest first', () => {
    const given = [...throughProgram, rejected('bind/do/1')];
    const retried = spec.given(throughProgram).when(rejected('bind/do/1'));
    expect(sent(retried.outputs)).toEqual(['bind/do/2']);
    const gaveUp = spec.given(given).when(rejected('bind/do/2', 3));
    expect(gaveUp.outputs[0]).toMatchObject({ kind: 'step', step: 'bind', outcome: 'failed', final: true, code: 'DEMO.NO', reason: 'no' });
    expect(sent(gaveUp.outputs)).toEqual(['program/compensate/1']);
    const reverted = spec.given([...given, rejected('bind/do/2', 3), accepted('program/compensate/1', 4)]).when(jobFinished('program/compensate/1', true, 5));
    expect(sent(reverted.outputs)).toEqual(['reserve/compensate/1']);
    const released = spec
      .given([...given, rejected('bind/do/2', 3), accepted('program/compensate/1', 4), jobFinished('program/compensate/1', true, 5)])
      .when(accepted('reserve/compensate/1', 6));
    expect(released.outputs.at(-1)).toEqual({ kind: 'complete', outcome: 'compensated', failure: { code: 'DEMO.NO', reason: 'no' } });
    expect(released.state).toMatchObject({ phase: 'compensated', toUndo: [], unresolved: [] });
  });

  it('treats a job’s timeout like a failed attempt and ignores the timer of an attempt already over', () => {
    const reserved = [placed, accepted('reserve/do/1')];
    const retried = spec.given(reserved).when(timer('program/do/1', DEMO_STEP_TIMEOUT_MS));
    expect(retried.outputs[0]).toMatchObject({ outcome: 'failed', final: false, code: 'WORKFLOW.STEP_TIMED_OUT', reason: `timed out after ${DEMO_STEP_TIMEOUT_MS} ms` });
    expect(retried.outputs.at(-1)).toEqual({ kind: 'schedule', key: 'program/do/2/timeout', dueAt: due(DEMO_STEP_TIMEOUT_MS) });
    spec.given([...reserved, accepted('program/do/1'), jobFinished('program/do/1', true)]).when(timer('program/do/1', DEMO_STEP_TIMEOUT_MS)).then([]);
    // Given up: the step done before it is undone.
    const gaveUp = spec.given([...reserved, timer('program/do/1', DEMO_STEP_TIMEOUT_MS)]).when(timer('program/do/2', 2 * DEMO_STEP_TIMEOUT_MS));
    expect(sent(gaveUp.outputs)).toEqual(['reserve/compensate/1']);
  });

  it('counts a late result of an earlier attempt as the step done', () => {
    const given = [placed, accepted('reserve/do/1'), timer('program/do/1', DEMO_STEP_TIMEOUT_MS)];
    expect(spec.given(given).when(jobFinished('program/do/1', true, DEMO_STEP_TIMEOUT_MS + 1)).outputs[0]).toMatchObject({ step: 'program', outcome: 'done', attempt: 2 });
  });

  it('fails naming the compensation it could not do, and an operator’s retry tries it again', () => {
    const failing = [...throughProgram, rejected('bind/do/1'), rejected('bind/do/2', 3), accepted('program/compensate/1', 4), jobFinished('program/compensate/1', false, 5)];
    expect(sent(spec.given(failing.slice(0, -1)).when(failing.at(-1)!).outputs)).toEqual(['program/compensate/2']);
    const twice = [...failing, accepted('program/compensate/2', 6)];
    const failed = spec.given(twice).when(jobFinished('program/compensate/2', false, 7));
    expect(sent(failed.outputs)).toEqual(['reserve/compensate/1']);
    const ended = spec.given([...twice, jobFinished('program/compensate/2', false, 7)]).when(accepted('reserve/compensate/1', 8));
    const fail = { kind: 'fail', failure: { code: 'DEMO.NO', reason: 'no' }, unresolved: [{ step: 'program', code: 'AGENT.BROKE', reason: 'agent failed program/compensate/2' }] } as const;
    expect(ended.outputs.at(-1)).toEqual(fail);
    expect(failedUndoText(fail.failure, fail.unresolved)).toBe('could not undo program (AGENT.BROKE: agent failed program/compensate/2) after DEMO.NO: no');
    const history = [...twice, jobFinished('program/compensate/2', false, 7), accepted('reserve/compensate/1', 8)];
    const retry: WorkflowInput = { kind: 'retry', id: 'r1', at: at(9), by: 'admin' };
    expect(sent(spec.given(history).when(retry).outputs)).toEqual(['program/compensate/3']);
    const afterRetry = spec.given([...history, retry, accepted('program/compensate/3', 10)]).when(jobFinished('program/compensate/3', true, 11));
    expect(afterRetry.outputs.at(-1)).toMatchObject({ kind: 'complete', outcome: 'compensated' });
  });

  it('says a failure once when the undo it could not do met the same one (an agent lost before the step and its undo)', () => {
    const refusedTwice = (key: string, ms: number) => [rejected(`${key}/1`, ms), rejected(`${key}/2`, ms)];
    const given = [...throughProgram, ...refusedTwice('bind/do', 3), ...refusedTwice('program/compensate', 4)];
    const ended = spec.given(given).when(accepted('reserve/compensate/1', 5));
    const fail = { kind: 'fail', failure: { code: 'DEMO.NO', reason: 'no' }, unresolved: [{ step: 'program', code: 'DEMO.NO', reason: 'no' }] } as const;
    expect(ended.outputs.at(-1)).toEqual(fail);
    expect(failedUndoText(fail.failure, fail.unresolved)).toBe('could not undo program (the same reason) after DEMO.NO: no');
  });

  it('cancels at the end of the action in flight, undoing that step too', () => {
    const cancel: WorkflowInput = { kind: 'cancel', id: 'c1', at: at(1), by: 'admin', reason: 'tenant left' };
    spec.given([placed, accepted('reserve/do/1'), accepted('program/do/1')]).when(cancel).then([]);
    const undoing = spec.given([placed, accepted('reserve/do/1'), accepted('program/do/1'), cancel]).when(jobFinished('program/do/1', true));
    expect(sent(undoing.outputs)).toEqual(['program/compensate/1']);
    expect(undoing.state.failure).toEqual({ step: 'program', code: 'WORKFLOW.CANCELLED', reason: 'cancelled by admin: tenant left' });
  });

  it('starts from an input the app records itself, and records a step that does not apply as skipped, with nothing to undo', () => {
    const skipping = defineStepWorkflow<{ program: boolean }>({
      name: 'skipping',
      routes: [],
      start: (input) => (input.kind === 'start' ? (input.data as { program: boolean }) : undefined),
      steps: ['claim', 'program', 'bind'].map((name) => ({
        name,
        do: () => ({ kind: 'command' as const, command: { type: `demo.${name}`, data: {} } }),
        compensate: () => ({ kind: 'command' as const, command: { type: `demo.un${name}`, data: {} } }),
        skip: name === 'program' ? ({ data }: { data: { program: boolean } }) => !data.program : undefined,
        timeoutMs: 1000,
        retry: { maxAttempts: 1 },
      })),
    });
    const skip = workflowSpec(skipping);
    const start: WorkflowInput = { kind: 'start', id: 'req-1', at: T0, data: { program: false } };
    expect(sent(skip.given([]).when(start).outputs)).toEqual(['claim/do/1']);
    const claimed = skip.given([start]).when(accepted('claim/do/1'));
    expect(claimed.outputs).toContainEqual({ kind: 'step', step: 'program', phase: 'do', outcome: 'skipped', attempt: 0 });
    expect(sent(claimed.outputs)).toEqual(['bind/do/1']);
    const undone = skip.given([start, accepted('claim/do/1')]).when(rejected('bind/do/1'));
    expect(sent(undone.outputs)).toEqual(['claim/compensate/1']);
    expect(sent(skip.given([]).when({ ...start, data: { program: true } }).outputs)).toEqual(['claim/do/1']);
    expect(sent(skip.given([{ ...start, data: { program: true } }]).when(accepted('claim/do/1')).outputs)).toEqual(['program/do/1']);
  });

  it('runs a step declared for some instances (stepWhen) with their data narrowed, and skips it for the others', () => {
    type Order = { readonly image: string | null };
    const loading = defineStepWorkflow<Order>({
      name: 'loading',
      routes: [],
      start: (input) => (input.kind === 'start' ? (input.data as Order) : undefined),
      steps: [
        stepWhen((data: Order): data is { image: string } => data.image !== null, {
          name: 'load',
          // `image` is a string here: no `!`.
          do: ({ data }) => ({ kind: 'command', command: { type: 'demo.Load', data: { image: data.image.toUpperCase() } } }),
          compensate: ({ data }) => ({ kind: 'command', command: { type: 'demo.Unload', data: { image: data.image } } }),
          timeoutMs: 1000,
          retry: { maxAttempts: 1 },
        }),
      ],
    });
    const load = workflowSpec(loading);
    const start = (image: string | null): WorkflowInput => ({ kind: 'start', id: 'req-1', at: T0, data: { image } });
    expect(load.given([]).when(start('abc')).outputs).toContainEqual({ kind: 'command', key: 'load/do/1', command: { type: 'demo.Load', data: { image: 'ABC' } } });
    expect(load.given([]).when(start(null)).outputs).toEqual([
      { kind: 'step', step: 'load', phase: 'do', outcome: 'skipped', attempt: 0 },
      { kind: 'complete', outcome: 'completed' },
    ]);
  });

  it('undoes a step whose failed attempt took effect, with those done, newest first (only a do-attempt counts)', () => {
    const checked = defineStepWorkflow<Record<string, never>>({
      name: 'checked',
      routes: [],
      start: (input) => (input.kind === 'start' ? {} : undefined),
      steps: ['claim', 'load'].map((name) => ({
        name,
        do: () => ({ kind: 'command' as const, command: { type: `demo.${name}`, data: {} } }),
        // The load's reply says what was loaded: a wrong one failed, but is loaded all the same.
        doneWhen:
          name === 'load'
            ? (input: WorkflowInput) =>
                input.kind === 'event' && input.type === 'demo.Loaded' ? { done: false as const, code: 'DEMO.WRONG', reason: 'wrong function', tookEffect: true } : undefined
            : undefined,
        compensate: () => ({ kind: 'command' as const, command: { type: `demo.un${name}`, data: {} } }),
        timeoutMs: 1000,
        retry: { maxAttempts: name === 'load' ? 2 : 1 },
      })),
    });
    const check = workflowSpec(checked);
    const loaded = (id: string): WorkflowInput => ({ kind: 'event', id, at: T0, type: 'demo.Loaded', stream: 'loads', data: {} });
    const given = [{ kind: 'start', id: 'req-1', at: T0, data: {} } as WorkflowInput, accepted('claim/do/1'), accepted('load/do/1')];
    const wrongOnce = check.given(given).when(loaded('l1'));
    expect(wrongOnce.outputs[0]).toMatchObject({ step: 'load', outcome: 'failed', final: false, tookEffect: true });
    expect(sent(wrongOnce.outputs)).toEqual(['load/do/2']);
    // The last attempt only timed out, but the first one loaded: the load is undone all the same.
    const givenUp = check.given([...given, loaded('l1')]).when(timer('load/do/2', 1000));
    expect(sent(givenUp.outputs)).toEqual(['load/compensate/1']);
    expect(givenUp.state).toMatchObject({ done: ['claim'], affected: ['load'], toUndo: ['load', 'claim'] });
  });

  describe('a job step', () => {
    const reserved = [placed, accepted('reserve/do/1')];

    it('is not done when the port accepts the request, only when its job completes (evidence: the job’s)', () => {
      spec.given(reserved).when(accepted('program/do/1')).then([]);
      const done = spec.given([...reserved, accepted('program/do/1')]).when(jobFinished('program/do/1', true));
      expect(done.outputs[0]).toEqual({ kind: 'step', step: 'program', phase: 'do', outcome: 'done', attempt: 1, evidence: { key: 'program/do/1' } });
      expect(sent(done.outputs)).toEqual(['bind/do/1']);
    });

    it('fails the attempt when its job fails (its code and reason) and retries', () => {
      const failed = spec.given([...reserved, accepted('program/do/1')]).when(jobFinished('program/do/1', false));
      expect(failed.outputs[0]).toMatchObject({ outcome: 'failed', final: false, code: 'AGENT.BROKE', reason: 'agent failed program/do/1', evidence: { key: 'program/do/1' } });
      expect(sent(failed.outputs)).toEqual(['program/do/2']);
    });

    it('fails the attempt when the port refuses the job (no agent)', () => {
      const refused = spec.given(reserved).when(rejected('program/do/1'));
      expect(refused.outputs[0]).toMatchObject({ step: 'program', outcome: 'failed', code: 'DEMO.NO', reason: 'no' });
      expect(sent(refused.outputs)).toEqual(['program/do/2']);
    });

    it('matches by the origin key: another workflow’s, another step’s or an earlier attempt’s failure says nothing', () => {
      const retrying = [...reserved, jobFinished('program/do/1', false), accepted('program/do/2')];
      spec.given(retrying).when(jobFinished('program/do/2', true, 2, 'bind')).then([]);
      spec.given(retrying).when(jobFinished('reserve/do/1', true)).then([]);
      spec.given(retrying).when({ ...jobFinished('program/do/1', false), id: 'late-failure' }).then([]);
      // A late completion of the earlier attempt counts: the job ran.
      expect(spec.given(retrying).when({ ...jobFinished('program/do/1', true), id: 'late' }).outputs[0]).toMatchObject({ step: 'program', outcome: 'done', attempt: 2 });
    });
  });

  it('ignores inputs once ended and refuses a definition it cannot run', () => {
    const done = [...throughProgram, accepted('bind/do/1')];
    spec.given(done).when({ kind: 'cancel', id: 'c2', at: at(3), by: 'admin', reason: 'late' }).then([]);
    const step = { name: 'a', do: () => ({ kind: 'command' as const, command: { type: 'x', data: {} } }), timeoutMs: 1, retry: { maxAttempts: 1 } };
    const define = (steps: (typeof step)[]) => () => defineStepWorkflow({ name: 'bad', routes: [], start: () => ({}), steps });
    expect(define([step, step])).toThrow(/two steps named a/);
    expect(define([{ ...step, retry: { maxAttempts: 0 } }])).toThrow(/maxAttempts/);
  });
});
