import type { Workflow } from '../workflow';
import type { WorkflowCommand } from '../workflow-output';
import type { StepEvidence, StepWorkflowDefinition } from './step-definition';
import { decideStep } from './step-decisions';
import { applyStepOutput, initialStepState, receiveInput, type StepWorkflowState } from './step-state';

/**
 * A workflow of steps declared as data. Each step sends its action (a
 * command or a job), waits for the evidence (the port's acceptance or an
 * input `doneWhen` recognises) within `timeoutMs`, and retries up to
 * `retry.maxAttempts`. When a step is given up, or an operator cancels, the
 * steps done are compensated newest first; the workflow ends `compensated`,
 * or `failed` naming each compensation that was given up and why. An
 * operator's retry of a failed workflow tries those compensations again.
 * `Command` types the commands the steps send and `Evidence` what the steps
 * read of the evidence of those before them.
 */
export function defineStepWorkflow<Data, Command extends WorkflowCommand = WorkflowCommand, Evidence extends StepEvidence = StepEvidence>(
  definition: StepWorkflowDefinition<Data, Command, Evidence>,
): Workflow<StepWorkflowState<Data>> {
  const names = definition.steps.map((step) => step.name);
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate !== undefined) throw new RangeError(`workflow ${definition.name} has two steps named ${duplicate}`);
  const invalid = definition.steps.find((step) => !(step.retry.maxAttempts >= 1) || !(step.timeoutMs > 0) || step.name.includes('/'));
  if (invalid) throw new RangeError(`step ${invalid.name} of workflow ${definition.name} needs retry.maxAttempts ≥ 1, timeoutMs > 0 and no "/" in its name`);
  return {
    name: definition.name,
    routes: definition.routes,
    initialState: initialStepState,
    decide: (input, state) => decideStep(definition, input, state),
    evolve: (state, message) =>
      message.kind === 'input' ? receiveInput(definition, state, message.input) : applyStepOutput(definition, state, message.output),
  };
}
