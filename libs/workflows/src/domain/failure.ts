/** Why something failed, as data: a stable code (`JOB.AGENT_UNAVAILABLE`) and a sentence for people. */
export interface Failure {
  readonly code: string;
  readonly reason: string;
}

/** A step's failure: which step, and why. */
export interface StepFailure extends Failure {
  readonly step: string;
}

/** The codes of the failures the workflow finds by itself, where the side it acts on gave no code. */
export const WorkflowFailureCodes = {
  /** No answer within the step's `timeoutMs`. */
  stepTimedOut: 'WORKFLOW.STEP_TIMED_OUT',
  /** An operator's cancel stopped it. */
  cancelled: 'WORKFLOW.CANCELLED',
  /** A failure recorded, before failures were data, as a sentence with no code in it. */
  uncoded: 'WORKFLOW.STEP_FAILED',
} as const;

const OWN_CODES: ReadonlySet<string> = new Set(Object.values(WorkflowFailureCodes));

/** True for a failure the workflow found by itself (a timeout, a cancel) rather than one the side it acts on answered with its own code. */
export const isWorkflowOwnFailure = (failure: Failure): boolean => OWN_CODES.has(failure.code);

export const sameFailure = (a: Failure, b: Failure): boolean => a.code === b.code && a.reason === b.reason;

/**
 * How a failure reads in the views: `CODE: reason`; the workflow's own (a
 * timeout, a cancel) by their sentence alone, which says it already.
 */
export const failureText = (failure: Failure): string => (isWorkflowOwnFailure(failure) ? failure.reason : `${failure.code}: ${failure.reason}`);

/**
 * `could not undo <step> (<its reason>) after <the failure>`. An undo often
 * meets the very failure that stopped the workflow (an agent lost refuses
 * the step and its undo alike): then its reason is not written out again.
 */
export function failedUndoText(failure: Failure | undefined, unresolved: readonly StepFailure[]): string {
  const names = unresolved.map((entry) => `${entry.step} (${failure && sameFailure(entry, failure) ? 'the same reason' : failureText(entry)})`).join(', ');
  return `could not undo ${names} after ${failure ? failureText(failure) : 'a failure'}`;
}
