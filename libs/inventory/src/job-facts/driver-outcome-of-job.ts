import type { RecordedEvent } from '@ledger/eventstore';
import { type DriverJobParams, isDriverJobKind, type JobCompleted, type JobFailed, type JobRequested } from '@ledger/jobs';
import type { RecordDriverOutcome } from '../domain/host-drivers.decider';
import type { PlaybookRecap } from '../domain/inventory.events';

const OPERATION = { 'install-driver': 'install', 'uninstall-driver': 'uninstall', 'update-driver': 'update' } as const;
const RECAP_MEMBERS = ['ok', 'changed', 'failed', 'unreachable', 'skipped'] as const;
const VERSION = /^[\x21-\x7e][\x20-\x7e]{0,63}$/;

/**
 * The host-stream fact a finished driver job makes, or undefined for a job
 * of another kind. The agent's evidence is read defensively: a recap that is
 * not five counts is recorded as null, and the installed version is what the
 * agent read back (`evidence.version`), else what the job asked for.
 */
export function driverOutcomeOfJob(requested: RecordedEvent & JobRequested, finished: RecordedEvent & (JobCompleted | JobFailed)): RecordDriverOutcome | undefined {
  const { kind, hostname, jobId } = requested.data;
  if (!isDriverJobKind(kind)) return undefined;
  const params = requested.data.params as DriverJobParams;
  const evidence = finished.data.evidence;
  const readBack = typeof evidence.version === 'string' && VERSION.test(evidence.version) ? evidence.version : undefined;
  return {
    type: 'RecordDriverOutcome',
    hostname,
    jobId,
    driver: params.driver,
    operation: OPERATION[kind as keyof typeof OPERATION],
    outcome: finished.type === 'jobs.JobCompleted' ? 'completed' : 'failed',
    version: readBack ?? params.version ?? null,
    recap: recapOf(evidence.recap),
    reason: finished.type === 'jobs.JobFailed' ? `${finished.data.code}: ${finished.data.reason}` : null,
  };
}

function recapOf(value: unknown): PlaybookRecap | null {
  if (typeof value !== 'object' || value === null) return null;
  const recap = value as Record<string, unknown>;
  if (!RECAP_MEMBERS.every((member) => Number.isSafeInteger(recap[member]) && (recap[member] as number) >= 0)) return null;
  return { ok: recap.ok as number, changed: recap.changed as number, failed: recap.failed as number, unreachable: recap.unreachable as number, skipped: recap.skipped as number };
}
