import type { RecordedEvent } from '@ledger/eventstore';
import type { CleanParams, JobCompleted, JobEvidence, JobFailed, JobRequested } from '@ledger/jobs';
import { NAMESPACE_LEDGER, uuidV5 } from '@ledger/kernel';
import type { RecordCleaned, RecordCleanFailed } from '../domain/device-cleaning';
import type { CleanStep } from '../domain/inventory.events';

/** The clean job of a device's cleaning attempt: one id per attempt, so a re-sent request asks for nothing new. */
export const cleanJobId = (deviceUuid: string, attempt: number): string => uuidV5(NAMESPACE_LEDGER, `clean/${deviceUuid.toLowerCase()}/${attempt}`);

/** What a finished clean job means on the device's stream: its handles offered again, or clean-failed with the reason. */
export function cleanOutcomeOfJob(requested: RecordedEvent & JobRequested, finished: JobCompleted | JobFailed): RecordCleaned | RecordCleanFailed | undefined {
  if (requested.data.kind !== 'clean') return undefined;
  const { deviceUuid, attempt } = requested.data.params as CleanParams;
  const common = { deviceUuid, attempt, jobId: requested.data.jobId, ran: stepsOf(finished.data.evidence) };
  if (finished.type === 'jobs.JobCompleted') return { type: 'RecordCleaned', ...common, cleanedAt: finished.data.completedAt };
  const { code, reason, failedAt } = finished.data;
  return { type: 'RecordCleanFailed', ...common, code, reason, failedAt };
}

/** The agent's `ran` steps as far as they are well formed: the outcome is recorded whatever the agent wrote. */
function stepsOf(evidence: JobEvidence): CleanStep[] {
  const ran = Array.isArray(evidence.ran) ? (evidence.ran as unknown[]) : [];
  return ran
    .filter((step): step is CleanStep => typeof (step as CleanStep)?.step === 'string' && typeof (step as CleanStep)?.result === 'string' && (step as CleanStep).step !== '')
    .map(({ step, result }) => ({ step, result: result === '' ? '(none)' : result }))
    .slice(0, 32);
}
