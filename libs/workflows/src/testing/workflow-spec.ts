import type { Workflow } from '../domain/workflow';
import type { WorkflowInput } from '../domain/workflow-input';
import type { WorkflowOutput } from '../domain/workflow-output';

/** Folds one input as the runtime does: decide on the state before it, then evolve the input and each output. */
function feed<State>(workflow: Workflow<State>, state: State, input: WorkflowInput): { state: State; outputs: readonly WorkflowOutput[] } {
  const outputs = workflow.decide(input, state);
  let next = workflow.evolve(state, { kind: 'input', input });
  for (const output of outputs) next = workflow.evolve(next, { kind: 'output', output });
  return { state: next, outputs };
}

/**
 * Given/when/then for workflows: `given` the inputs so far (each decided
 * and folded in turn, as the runtime would), `when` one more input, `then`
 * the outputs it decides.
 */
export function workflowSpec<State>(workflow: Workflow<State>) {
  return {
    given(inputs: readonly WorkflowInput[]) {
      const state = inputs.reduce((current, input) => feed(workflow, current, input).state, workflow.initialState());
      return {
        state,
        when(input: WorkflowInput) {
          const result = feed(workflow, state, input);
          return {
            outputs: result.outputs,
            state: result.state,
            then(expected: readonly WorkflowOutput[]): void {
              expect(result.outputs).toEqual(expected);
            },
          };
        },
      };
    },
  };
}
