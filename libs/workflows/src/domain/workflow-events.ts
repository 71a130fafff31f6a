import type { WorkflowInput } from './workflow-input';
import type { DecidedOutput } from './workflow-output';

/** The facts on a workflow's stream. */
export const WorkflowEventTypes = {
  inputRecorded: 'workflow.InputRecorded',
  outputsDecided: 'workflow.OutputsDecided',
  outputSent: 'workflow.OutputSent',
} as const;

export interface InputRecorded {
  readonly type: typeof WorkflowEventTypes.inputRecorded;
  readonly data: { readonly input: WorkflowInput };
}

/** The decision on one input: every output, with its id. May be empty (the input changed nothing). */
export interface OutputsDecided {
  readonly type: typeof WorkflowEventTypes.outputsDecided;
  readonly data: { readonly inputId: string; readonly outputs: readonly DecidedOutput[] };
}

/** A command, job or timer left through its port (recorded after the port accepted or refused it). */
export interface OutputSent {
  readonly type: typeof WorkflowEventTypes.outputSent;
  readonly data: { readonly outputId: string };
}

export type WorkflowEvent = InputRecorded | OutputsDecided | OutputSent;
