import type { DomainEvent } from '@ledger/kernel';
import type { WorkflowInput } from './workflow-input';
import type { DecidedOutput } from './workflow-output';

/** The facts on a workflow's stream. */
export const WorkflowEventTypes = {
  inputRecorded: 'workflow.InputRecorded',
  outputsDecided: 'workflow.OutputsDecided',
  outputSent: 'workflow.OutputSent',
} as const;

/**
 * Schema version of each event type's data (older ones are upcast on read,
 * `upcastWorkflowEvent`). OutputsDecided 2: failures are `{code, reason}`
 * data; version 1 wrote them as `CODE: message` sentences.
 */
export const WORKFLOW_EVENT_SCHEMA_VERSIONS = {
  'workflow.InputRecorded': 1,
  'workflow.OutputsDecided': 2,
  'workflow.OutputSent': 1,
} as const satisfies Readonly<Record<(typeof WorkflowEventTypes)[keyof typeof WorkflowEventTypes], number>>;

/** An input (another stream's event, a job's result, a timer, an operator's cancel), recorded once: deduplicated by its id. */
export type InputRecorded = DomainEvent<typeof WorkflowEventTypes.inputRecorded, { readonly input: WorkflowInput }>;

/** The decision on one input: every output, with its id. May be empty (the input changed nothing). */
export type OutputsDecided = DomainEvent<typeof WorkflowEventTypes.outputsDecided, { readonly inputId: string; readonly outputs: readonly DecidedOutput[] }>;

/** A command, job or timer left through its port (recorded after the port accepted or refused it). */
export type OutputSent = DomainEvent<typeof WorkflowEventTypes.outputSent, { readonly outputId: string }>;

export type WorkflowEvent = InputRecorded | OutputsDecided | OutputSent;
