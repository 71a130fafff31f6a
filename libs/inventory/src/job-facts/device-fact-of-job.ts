import type { RecordedEvent } from '@ledger/eventstore';
import {
  type ConfigureVfsParams,
  isShellProgram,
  type JobCompleted,
  type JobEvidence,
  type JobFailed,
  type JobRequested,
  type ProgramParams,
  type ShellProgramParams,
} from '@ledger/jobs';
import type { DeviceJobCommand } from '../domain/device-job-facts';
import type { RecordPartitionCarved, RecordPartitionDestroyed } from '../domain/partitioning/device-partitions';
import { partitionFactOfJob } from './partition-fact-of-job';
import type { DeviceJobRequester } from '../domain/inventory.events';

const MAX_DEVICE_STATE = 1024;

/** What every device fact of a job carries. */
type JobFactCommon = Pick<DeviceJobCommand, 'deviceUuid' | 'hostname' | 'jobId' | 'requestedBy'>;

/**
 * The inventory command a finished job makes, or undefined for a job that
 * changes nothing the device stream records (other kinds, a failed shell
 * load or VF change: their job's stream already tells it). Evidence is the
 * agent's JSON: a completed job's read-back ids are passed as they are, so
 * the device decider refuses a malformed one and the event is parked for an
 * operator; a failure's read-back is taken only when well formed, since the
 * failure itself must be recorded.
 */
export function deviceFactOfJob(
  requested: RecordedEvent & JobRequested,
  finished: JobCompleted | JobFailed,
): DeviceJobCommand | RecordPartitionCarved | RecordPartitionDestroyed | undefined {
  const { kind, params, hostname, jobId } = requested.data;
  const common: JobFactCommon = { deviceUuid: (params as { deviceUuid: string }).deviceUuid, hostname, jobId, requestedBy: requesterOf(requested) };
  if (kind === 'carve' || kind === 'destroy') return partitionFactOfJob(requested, finished, common.requestedBy);
  const evidence = finished.data.evidence;
  if (kind === 'configure-vfs') {
    if (finished.type !== 'jobs.JobCompleted') return undefined;
    const asked = params as ConfigureVfsParams;
    return {
      type: 'RecordVfsConfigured',
      ...common,
      numVfs: Number.isSafeInteger(evidence.numVfs) ? (evidence.numVfs as number) : asked.numVfs,
      previousNumVfs: Number.isSafeInteger(evidence.previousNumVfs) ? (evidence.previousNumVfs as number) : null,
      configuredAt: finished.data.completedAt,
    };
  }
  if (kind !== 'program') return undefined;
  if (isShellProgram(params)) return finished.type === 'jobs.JobCompleted' ? shellProgrammed(common, params, evidence, finished.data.completedAt) : undefined;
  const region = params as ProgramParams;
  // The region the job named, else the one the agent says it loaded (a VF's address selects one): each region's record names it.
  const target = { ...common, deployableUuid: region.deployableUuid, region: region.region ?? regionOfEvidence(evidence), bitstreamId: region.bitstreamId ?? null };
  if (finished.type === 'jobs.JobFailed') {
    const { code, reason, failedAt } = finished.data;
    return { type: 'RecordRegionProgramFailed', ...target, code, reason, regionHolds: regionHolds(evidence), deviceState: deviceStateOf(evidence), failedAt };
  }
  return {
    type: 'RecordRegionProgrammed',
    ...target,
    sha256: sha256Of(evidence, region),
    functionId: evidence.functionId as string,
    previousFunctionId: (evidence.previousFunctionId ?? null) as string | null,
    programmedAt: finished.data.completedAt,
  };
}

function shellProgrammed(common: JobFactCommon, params: ShellProgramParams, evidence: JobEvidence, programmedAt: string): DeviceJobCommand {
  return {
    type: 'RecordShellProgrammed',
    ...common,
    bitstreamId: params.bitstreamId ?? null,
    sha256: sha256Of(evidence, params),
    interfaceId: evidence.interfaceId as string,
    previousInterfaceId: (evidence.previousInterfaceId ?? null) as string | null,
    programmedAt,
  };
}

/**
 * Who asked: the job's requester, and the workflow that sent it — named by
 * the job's origin when it carries one, else by a correlation id that is a
 * workflow stream (workflows send their commands correlated so).
 */
function requesterOf(requested: RecordedEvent & JobRequested): DeviceJobRequester {
  const { actor, correlationId } = requested.metadata;
  const origin = (requested.data as { origin?: { workflow?: unknown; workflowId?: unknown } }).origin;
  const workflow =
    typeof origin?.workflow === 'string' && typeof origin.workflowId === 'string'
      ? `workflow-${origin.workflow}-${origin.workflowId}`
      : correlationId.startsWith('workflow-')
        ? correlationId
        : null;
  return { user: actor.user, project: actor.project, workflow };
}

/** The checksum the agent verified, else the one the job asked for (an image by uuid has none). */
function sha256Of(evidence: JobEvidence, params: ProgramParams | ShellProgramParams): string | null {
  if (typeof evidence.sha256 === 'string') return evidence.sha256;
  return 'sha256' in params.image ? params.image.sha256 : null;
}

const regionOfEvidence = (evidence: JobEvidence): string | null =>
  typeof evidence.region === 'string' || Number.isSafeInteger(evidence.region) ? String(evidence.region) : null;

/** What the region holds after a failure, when the agent read it back (a function id, or null for blank). */
function regionHolds(evidence: JobEvidence): { functionId: string | null } | null {
  if (!('functionId' in evidence)) return null;
  const id = evidence.functionId;
  if (id === null) return { functionId: null };
  return typeof id === 'string' && /^[0-9a-f]{32}$/.test(id.replace(/-/g, '').toLowerCase()) ? { functionId: id } : null;
}

function deviceStateOf(evidence: JobEvidence): string | null {
  const state = evidence.deviceState;
  if (typeof state !== 'string' || state.length === 0) return null;
  return state.length > MAX_DEVICE_STATE ? `${state.slice(0, MAX_DEVICE_STATE - 1)}…` : state;
}
