import type { StepContext } from './step-definition';

/**
 * Why a workflow stopped, as `{code, reason}`, read from the failure a
 * compensation sees: a reason recorded as `CODE: message` (a port's refusal,
 * a job's failure code) keeps its code; any other (a timeout, a cancel)
 * gets `fallbackCode`.
 */
export function codedFailure(context: Pick<StepContext<unknown>, 'failure'>, fallbackCode: string, fallbackReason: string): { code: string; reason: string } {
  const reason = context.failure?.reason ?? fallbackReason;
  const coded = /^([A-Z][A-Z0-9_]*\.[A-Z0-9_.]+): (.*)$/s.exec(reason);
  return coded ? { code: coded[1], reason: coded[2] } : { code: fallbackCode, reason };
}
