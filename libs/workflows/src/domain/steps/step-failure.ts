import type { Failure } from '../failure';
import { isWorkflowOwnFailure } from '../failure';
import type { StepContext } from './step-definition';

/**
 * Why the workflow stopped, as a compensation records it on the side it
 * acts on (a bind's `BindFailed`): the failure's code and reason; for the
 * workflow's own (a timeout, a cancel), which that side has no code for,
 * `fallback`'s code with the failure's reason; `fallback` when none is known.
 */
export function reportedFailure(context: Pick<StepContext<unknown>, 'failure'>, fallback: Failure): Failure {
  const { failure } = context;
  if (!failure) return fallback;
  return { code: isWorkflowOwnFailure(failure) ? fallback.code : failure.code, reason: failure.reason };
}
