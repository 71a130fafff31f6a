import type { Workflow } from './workflow';
import { type OutputsDecided, type WorkflowEvent, WorkflowEventTypes } from './workflow.events';
import type { WorkflowInput } from './workflow-input';
import { type DecidedOutput, type DecidedSendable, isSendable, type WorkflowOutput } from './workflow-output';

export type WorkflowStatus = 'running' | 'completed' | 'compensated' | 'failed';

/** A workflow stream folded: the workflow's own state plus what the runtime still has to do. */
export interface WorkflowRecord<State> {
  readonly stream: string;
  /** The stream's version (0: no instance yet). */
  readonly version: number;
  readonly state: State;
  readonly status: WorkflowStatus;
  /** Every input id recorded, decided or not: an input seen again is a duplicate. */
  readonly inputIds: ReadonlySet<string>;
  /** Inputs recorded but not decided yet, in stream order. */
  readonly pending: readonly WorkflowInput[];
  /** Outputs decided but not sent yet, in decision order. */
  readonly unsent: readonly DecidedSendable[];
}

/** The status after a decision: `complete` and `fail` end it; anything sent (an operator's retry) runs it again. */
function statusAfter(status: WorkflowStatus, outputs: readonly WorkflowOutput[]): WorkflowStatus {
  for (const output of outputs) {
    if (output.kind === 'complete') return output.outcome;
    if (output.kind === 'fail') return 'failed';
  }
  return outputs.some(isSendable) ? 'running' : status;
}

export const emptyRecord = <State>(workflow: Workflow<State>, stream: string): WorkflowRecord<State> => ({
  stream,
  version: 0,
  state: workflow.initialState(),
  status: 'running',
  inputIds: new Set(),
  pending: [],
  unsent: [],
});

/** Folds one recorded event of the workflow's stream (at `version`) into the record. */
export function evolveRecord<State>(workflow: Workflow<State>, record: WorkflowRecord<State>, event: WorkflowEvent, version: number): WorkflowRecord<State> {
  switch (event.type) {
    case WorkflowEventTypes.inputRecorded: {
      const inputIds = new Set(record.inputIds).add(event.data.input.id);
      return { ...record, version, inputIds, pending: [...record.pending, event.data.input] };
    }
    case WorkflowEventTypes.outputsDecided:
      return { ...applyDecision(workflow, record, event.data), version };
    case WorkflowEventTypes.outputSent:
      return { ...record, version, unsent: record.unsent.filter((output) => output.id !== event.data.outputId) };
  }
}

/** Folds a decision: the input it decided on, then each output (an input with no recorded decision stays pending). */
function applyDecision<State>(workflow: Workflow<State>, record: WorkflowRecord<State>, decision: OutputsDecided['data']): WorkflowRecord<State> {
  const input = record.pending.find((candidate) => candidate.id === decision.inputId);
  let state = input ? workflow.evolve(record.state, { kind: 'input', input }) : record.state;
  for (const output of decision.outputs) state = workflow.evolve(state, { kind: 'output', output });
  const sendable = decision.outputs.filter((output): output is DecidedSendable => isSendable(output) && output.id !== undefined);
  return {
    ...record,
    state,
    status: statusAfter(record.status, decision.outputs),
    pending: record.pending.filter((candidate) => candidate.id !== decision.inputId),
    unsent: [...record.unsent, ...sendable],
  };
}

/** Ended for good: inputs are no longer decided on (a failed workflow still takes a retry or a cancel). */
export const hasEnded = (status: WorkflowStatus): boolean => status === 'completed' || status === 'compensated';

/**
 * Decides every pending input in order. Returns the decisions to record
 * (an ended workflow's are empty) and the record as it will be once they are.
 */
export function decidePending<State>(workflow: Workflow<State>, record: WorkflowRecord<State>): { decisions: OutputsDecided[]; record: WorkflowRecord<State> } {
  const decisions: OutputsDecided[] = [];
  let current = record;
  const keys = new Set<string>();
  for (const input of record.pending) {
    const outputs = hasEnded(current.status) ? [] : workflow.decide(input, current.state);
    const decided: DecidedOutput[] = outputs.map((output) => {
      if (!('key' in output)) return output;
      // An unschedule names the schedule it drops: same key, same id (the timer row's).
      if (output.kind === 'unschedule') return { ...output, id: `${record.stream}/${output.key}` };
      if (keys.has(output.key)) throw new Error(`workflow ${workflow.name} decided the output key ${output.key} twice in ${record.stream}`);
      keys.add(output.key);
      return { ...output, id: `${record.stream}/${output.key}` };
    });
    const decision: OutputsDecided = { type: WorkflowEventTypes.outputsDecided, data: { inputId: input.id, outputs: decided } };
    decisions.push(decision);
    current = applyDecision(workflow, current, decision.data);
  }
  return { decisions, record: current };
}
