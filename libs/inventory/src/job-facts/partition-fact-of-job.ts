import type { RecordedEvent } from '@ledger/eventstore';
import type { CarveParams, DestroyParams, JobCompleted, JobFailed, JobRequested } from '@ledger/jobs';
import type { DeviceJobRequester } from '../domain/inventory.events';
import type { RecordPartitionCarved, RecordPartitionDestroyed } from '../domain/partitioning/device-partitions';

const integerOrNull = (value: unknown): number | null => (Number.isSafeInteger(value) ? (value as number) : null);

/**
 * The device fact a completed carve or destroy job makes: the partition the
 * agent carved (its handle and span, as the agent read them back) or the
 * one it destroyed. A failed carve made nothing (the driver leaves nothing
 * carved) and a failed destroy changed nothing: their job streams tell it.
 */
export function partitionFactOfJob(
  requested: RecordedEvent & JobRequested,
  finished: JobCompleted | JobFailed,
  requestedBy: DeviceJobRequester,
): RecordPartitionCarved | RecordPartitionDestroyed | undefined {
  const { kind, hostname, jobId } = requested.data;
  if ((kind !== 'carve' && kind !== 'destroy') || finished.type !== 'jobs.JobCompleted') return undefined;
  const evidence = finished.data.evidence;
  if (kind === 'destroy') {
    const params = requested.data.params as DestroyParams;
    return { type: 'RecordPartitionDestroyed', deviceUuid: params.deviceUuid, hostname, jobId, requestedBy, handle: params.handle, reason: params.reason, destroyedAt: finished.data.completedAt };
  }
  const params = requested.data.params as CarveParams;
  return {
    type: 'RecordPartitionCarved',
    deviceUuid: params.deviceUuid,
    hostname,
    jobId,
    requestedBy,
    profile: params.profile,
    start: integerOrNull(evidence.start) ?? params.start,
    slices: integerOrNull(evidence.slices) ?? 0,
    handle: evidence.handle as string,
    gpuInstanceId: integerOrNull(evidence.gpuInstanceId),
    computeInstanceId: integerOrNull(evidence.computeInstanceId),
    bindId: params.bindId ?? null,
    carvedAt: finished.data.completedAt,
  };
}
