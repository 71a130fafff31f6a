import type { Workflow, WorkflowMessage } from './workflow';
import { isStartingInput, type StartingInput, type WorkflowInput } from './workflow-input';
import type { WorkflowOutput } from './workflow-output';

/** The wrapper's own timer key: no step key has no "/" (step keys do). */
const DELAY_KEY = 'delayed-start';

export interface DelayedStartState<State> {
  /** `new`: nothing received; `waiting`: the start came, its timer runs; `started`: the inner workflow has it. */
  readonly phase: 'new' | 'waiting' | 'started';
  readonly pending?: StartingInput;
  readonly inner: State;
}

/**
 * The workflow `inner`, started `delayMs(start)` after its starting input
 * rather than at it, on a durable timer: a crash during the wait loses
 * nothing, and the inner workflow sees its start at the timer's time. A
 * delay of 0 or less (or undefined) starts it at once.
 */
export function delayedStart<State>(inner: Workflow<State>, delayMs: (start: StartingInput) => number | undefined): Workflow<DelayedStartState<State>> {
  const waits = (input: StartingInput): boolean => (delayMs(input) ?? 0) > 0;
  const startOf = (pending: StartingInput, timer: WorkflowInput): StartingInput => ({ ...pending, at: timer.at });
  const dueTimer = (input: WorkflowInput, state: DelayedStartState<State>): boolean =>
    state.phase === 'waiting' && input.kind === 'timer' && input.key === DELAY_KEY && state.pending !== undefined;
  return {
    name: inner.name,
    routes: inner.routes,
    initialState: () => ({ phase: 'new', inner: inner.initialState() }),
    decide(input, state): readonly WorkflowOutput[] {
      if (state.phase === 'started') return inner.decide(input, state.inner);
      if (state.phase === 'new' && isStartingInput(input)) {
        if (!waits(input)) return inner.decide(input, state.inner);
        return [{ kind: 'schedule', key: DELAY_KEY, dueAt: new Date(Date.parse(input.at) + (delayMs(input) ?? 0)).toISOString() }];
      }
      if (dueTimer(input, state)) return inner.decide(startOf(state.pending!, input), state.inner);
      // Before the start, nothing of the inner workflow's is in flight: any other input has nothing to act on.
      return [];
    },
    evolve(state, message: WorkflowMessage): DelayedStartState<State> {
      if (message.kind === 'output') {
        if (message.output.kind === 'schedule' && message.output.key === DELAY_KEY) return state;
        return { ...state, inner: inner.evolve(state.inner, message) };
      }
      const { input } = message;
      if (state.phase === 'started') return { ...state, inner: inner.evolve(state.inner, message) };
      if (state.phase === 'new' && isStartingInput(input)) {
        if (!waits(input)) return { phase: 'started', inner: inner.evolve(state.inner, message) };
        return { phase: 'waiting', pending: input, inner: state.inner };
      }
      if (dueTimer(input, state)) return { phase: 'started', inner: inner.evolve(state.inner, { kind: 'input', input: startOf(state.pending!, input) }) };
      return state;
    },
  };
}
