import { jobResultOf, type StepVerdict, type WorkflowInput } from '@ledger/workflows';
import { normalizeHexId } from '../../../domain/fpga-id';

const PROGRAM_KEYS = 'program-region/do/';

/**
 * The program-region step's verdict on a job result: the job's own (its
 * evidence holds the function id the agent read back), except that a load
 * of another function than the profile asked for fails the attempt, and,
 * having changed the region, is undone with the steps done. A completion of
 * any attempt counts; a failure only for the attempt in flight.
 */
export function programmedVerdict(workflow: string, input: WorkflowInput, attempt: number, expectedFunctionId: string | null): StepVerdict | undefined {
  const result = jobResultOf(workflow, input);
  if (!result?.key.startsWith(PROGRAM_KEYS)) return undefined;
  if (!result.done) return result.key === `${PROGRAM_KEYS}${attempt}` ? { done: false, code: result.code, reason: result.reason, evidence: result.evidence } : undefined;
  const readBack = (result.evidence as { functionId?: unknown } | null)?.functionId;
  if (expectedFunctionId === null || (typeof readBack === 'string' && normalizeHexId(readBack) === expectedFunctionId)) return { done: true, evidence: result.evidence };
  return {
    done: false,
    code: 'ARQ.FUNCTION_MISMATCH',
    reason: `the region reads back function ${String(readBack)}, not ${expectedFunctionId} as the profile asks`,
    evidence: result.evidence,
    tookEffect: true,
  };
}
