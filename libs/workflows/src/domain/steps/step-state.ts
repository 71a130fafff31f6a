import { type StepFailure, WorkflowFailureCodes } from '../failure';
import { isStartingInput, type WorkflowInput } from '../workflow-input';
import type { DecidedOutput, StepNote } from '../workflow-output';
import type { StepWorkflowDefinition } from './step-definition';

/** The action in flight: which step, doing or undoing it, which attempt, and the last attempt allowed. */
export interface CurrentAction {
  readonly step: number;
  readonly phase: 'do' | 'compensate';
  readonly attempt: number;
  readonly lastAttempt: number;
}

export interface StepWorkflowState<Data> {
  readonly phase: 'new' | 'doing' | 'compensating' | 'completed' | 'compensated' | 'failed';
  readonly data: Data | undefined;
  readonly current: CurrentAction | undefined;
  /** Names of the steps done (or skipped), in order. */
  readonly done: readonly string[];
  /** Steps that did not apply: done without anything to undo. */
  readonly skipped: readonly string[];
  /** Steps not done whose failed attempt took effect all the same: undone with those done. */
  readonly affected: readonly string[];
  readonly evidence: Readonly<Record<string, unknown>>;
  /** Why compensation began (a step given up, an operator's cancel). */
  readonly failure: StepFailure | undefined;
  /** Steps still to compensate, in the order to do it. */
  readonly toUndo: readonly string[];
  /** Compensations given up: what an operator must look at. */
  readonly unresolved: readonly StepFailure[];
  /** An operator's cancel that waits for the action in flight to end. */
  readonly cancel: { readonly by: string; readonly reason: string } | undefined;
  /** Attempts used so far per `<step>/<phase>`: keys stay unique across an operator's retries. */
  readonly attempts: Readonly<Record<string, number>>;
}

export const initialStepState = <Data>(): StepWorkflowState<Data> => ({
  phase: 'new',
  data: undefined,
  current: undefined,
  done: [],
  skipped: [],
  affected: [],
  evidence: {},
  failure: undefined,
  toUndo: [],
  unresolved: [],
  cancel: undefined,
  attempts: {},
});

/** The steps to compensate once the workflow stops: those done (or affected by a failed attempt) that have a compensation, newest first. */
export function stepsToUndo<Data>(definition: StepWorkflowDefinition<Data>, state: Pick<StepWorkflowState<Data>, 'done' | 'skipped' | 'affected'>): string[] {
  const undoable = new Set(definition.steps.filter((step) => step.compensate).map((step) => step.name));
  const touched = [...state.done, ...state.affected.filter((name) => !state.done.includes(name))];
  return touched.filter((name) => undoable.has(name) && !state.skipped.includes(name)).reverse();
}

/**
 * What an input changes by itself, before any decision: the data a start
 * event carries, a cancel waiting for the action in flight, and an
 * operator's retry putting the unresolved compensations back in line.
 * Both `decide` (to see the state it decides from) and `evolve` use it.
 */
export function receiveInput<Data>(definition: StepWorkflowDefinition<Data>, state: StepWorkflowState<Data>, input: WorkflowInput): StepWorkflowState<Data> {
  if (isStartingInput(input) && state.phase === 'new') return { ...state, data: definition.start(input) };
  if (input.kind === 'cancel' && state.phase === 'doing' && !state.cancel) return { ...state, cancel: { by: input.by, reason: input.reason } };
  if (input.kind === 'retry' && state.phase === 'failed') {
    return { ...state, phase: 'compensating', toUndo: state.unresolved.map((entry) => entry.step), unresolved: [] };
  }
  return state;
}

const failureOfNote = (note: StepNote): StepFailure => ({
  step: note.step,
  code: note.code ?? WorkflowFailureCodes.uncoded,
  reason: note.reason ?? 'failed',
});

/** Folds one decided output: the step notes, and how the workflow ended. */
export function applyStepOutput<Data>(definition: StepWorkflowDefinition<Data>, state: StepWorkflowState<Data>, output: DecidedOutput): StepWorkflowState<Data> {
  if (output.kind === 'complete') return { ...state, phase: output.outcome, current: undefined };
  if (output.kind === 'fail') return { ...state, phase: 'failed', current: undefined };
  if (output.kind !== 'step') return state;
  const step = definition.steps.findIndex((candidate) => candidate.name === output.step);
  const counter = `${output.step}/${output.phase}`;
  switch (output.outcome) {
    case 'skipped':
      return { ...state, done: [...state.done, output.step], skipped: [...state.skipped, output.step] };
    case 'started': {
      const attempts = { ...state.attempts, [counter]: output.attempt };
      const fresh = state.current?.step !== step || state.current.phase !== output.phase;
      const lastAttempt = fresh ? output.attempt - 1 + definition.steps[step].retry.maxAttempts : state.current!.lastAttempt;
      const phase = output.phase === 'do' ? 'doing' : 'compensating';
      return { ...state, phase, attempts, current: { step, phase: output.phase, attempt: output.attempt, lastAttempt } };
    }
    case 'done': {
      if (output.phase === 'compensate') return { ...state, current: undefined, toUndo: state.toUndo.filter((name) => name !== output.step) };
      const done = [...state.done, output.step];
      const evidence = { ...state.evidence, [output.step]: output.evidence };
      if (!state.cancel) return { ...state, current: undefined, done, evidence };
      // A cancel waited for this step to end: now it is done, it is undone with the others.
      const failure = { step: output.step, code: WorkflowFailureCodes.cancelled, reason: `cancelled by ${state.cancel.by}: ${state.cancel.reason}` };
      return { ...state, phase: 'compensating', current: undefined, done, evidence, failure, toUndo: stepsToUndo(definition, { ...state, done }) };
    }
    case 'failed': {
      const affected = output.tookEffect && output.phase === 'do' && !state.affected.includes(output.step) ? [...state.affected, output.step] : state.affected;
      if (!output.final) return { ...state, affected };
      if (output.phase === 'do') {
        return {
          ...state,
          phase: 'compensating',
          current: undefined,
          affected,
          failure: failureOfNote(output),
          toUndo: stepsToUndo(definition, { ...state, affected }),
        };
      }
      return {
        ...state,
        current: undefined,
        toUndo: state.toUndo.filter((name) => name !== output.step),
        unresolved: [...state.unresolved, failureOfNote(output)],
      };
    }
  }
}
