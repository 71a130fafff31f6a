import { type Failure, WorkflowFailureCodes } from './failure';
import { type WorkflowEvent, WORKFLOW_EVENT_SCHEMA_VERSIONS, WorkflowEventTypes } from './workflow.events';
import type { CompleteOutput, DecidedOutput, FailOutput, StepNote, WorkflowOutput } from './workflow-output';

/** A workflow stream's event as read back: the schema version it was recorded with says its form. */
export interface StoredWorkflowEvent {
  readonly type: string;
  readonly data: unknown;
  readonly metadata: { readonly schemaVersion: number };
}

/** The outputs of an OutputsDecided of schema version 1: those that carry a failure carried it as a sentence, `reason`. */
type OutputV1 = (
  | Exclude<WorkflowOutput, StepNote | CompleteOutput | FailOutput>
  | Omit<StepNote, 'code'>
  | (Omit<CompleteOutput, 'failure'> & { readonly reason?: string })
  | (Omit<FailOutput, 'failure' | 'unresolved'> & { readonly reason: string; readonly unresolved: readonly { readonly step: string; readonly reason: string }[] })
) & { readonly id?: string };

const CODED = /^([A-Z][A-Z0-9_]*\.[A-Z0-9_.]+): (.*)$/s;

/** A version 1 failure sentence as data: `CODE: message`, or the workflow's own (a timeout, a cancel) that carried no code. */
export function failureOfText(text: string): Failure {
  const coded = CODED.exec(text);
  if (coded) return { code: coded[1], reason: coded[2] };
  if (text.startsWith('timed out after ')) return { code: WorkflowFailureCodes.stepTimedOut, reason: text };
  if (text.startsWith('cancelled by ')) return { code: WorkflowFailureCodes.cancelled, reason: text };
  return { code: WorkflowFailureCodes.uncoded, reason: text };
}

/**
 * What stopped a workflow, from a version 1 fail sentence `could not undo
 * <step> (<why>), … after <what stopped it>`: the ending that, with the
 * unresolved entries, writes the very sentence again (a reason may itself
 * say "after", as a timeout does). An undo that met the cause read
 * `(the same reason)`, or, written before that, repeated it.
 */
function causeOfFailText(text: string, entries: readonly { readonly step: string; readonly reason: string }[]): Failure | undefined {
  const marker = ' after ';
  for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
    const cause = text.slice(at + marker.length);
    const written = (same: boolean) => `could not undo ${entries.map((entry) => `${entry.step} (${same && entry.reason === cause ? 'the same reason' : entry.reason})`).join(', ')}${marker}${cause}`;
    if (written(true) === text || written(false) === text) return failureOfText(cause);
  }
  return undefined;
}

function upcastOutput(output: OutputV1): DecidedOutput {
  switch (output.kind) {
    case 'step':
      return output.reason === undefined ? output : { ...output, ...failureOfText(output.reason) };
    case 'complete': {
      const { reason, ...rest } = output;
      return reason === undefined ? rest : { ...rest, failure: failureOfText(reason) };
    }
    case 'fail': {
      const { reason, unresolved: entries, ...rest } = output;
      const failure = causeOfFailText(reason, entries);
      return { ...rest, unresolved: entries.map((entry) => ({ step: entry.step, ...failureOfText(entry.reason) })), ...(failure && { failure }) };
    }
    default:
      return output;
  }
}

/**
 * A workflow event as read back, in today's form: the one place an older
 * form is read (where events are folded: the runtime's record, the
 * `workflows` projection). OutputsDecided of version 1 wrote each failure as
 * a `CODE: message` sentence; it becomes `{code, reason}` here, once.
 */
export function upcastWorkflowEvent(event: StoredWorkflowEvent): WorkflowEvent {
  const fact = { type: event.type, data: event.data } as WorkflowEvent;
  if (fact.type !== WorkflowEventTypes.outputsDecided || event.metadata.schemaVersion >= WORKFLOW_EVENT_SCHEMA_VERSIONS[fact.type]) return fact;
  // Recorded before version 2: the outputs are of version 1's form.
  const outputs = fact.data.outputs as readonly OutputV1[];
  return { type: fact.type, data: { ...fact.data, outputs: outputs.map(upcastOutput) } };
}
