import type { DomainEvent } from '../../../eventstore/src/command-handling/decider';

/**
 * Jobs the ledger asks of a host's agent (stream `job-<jobId>`). The agent
 * side that carries them out, and the completed / failed facts, come later.
 */
export const DeviceJobEventTypes = {
  JobRequested: 'programming.JobRequested',
} as const;

export const DEVICE_JOB_EVENT_SCHEMA_VERSIONS: Readonly<Record<string, number>> = {
  'programming.JobRequested': 1,
};

/** Load the bitstream `imageUuid` into a deployable (Cyborg's PATCH /v2/deployables/{uuid}/program). */
export type ProgramJobRequested = DomainEvent<
  'programming.JobRequested',
  {
    readonly jobId: string;
    readonly kind: 'program';
    readonly hostname: string;
    readonly deviceUuid: string;
    readonly deployableUuid: string;
    readonly imageUuid: string;
    readonly requestedAt: string;
  }
>;

export type DeviceJobEvent = ProgramJobRequested;

export const jobStream = (jobId: string): string => `job-${jobId}`;
