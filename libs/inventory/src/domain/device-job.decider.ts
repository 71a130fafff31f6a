import { ConflictError, isUuid, ValidationError } from '@ledger/kernel';
import type { Decider } from '../../../eventstore/src/command-handling/decider';
import type { DeviceType } from './host-report';
import type { DeviceJobEvent } from './device-job.events';

/** Stable error codes of device jobs. */
export const DeviceJobErrorCodes = {
  /** The job request is malformed (400). */
  INVALID: 'JOB.INVALID',
  /** Only FPGA deployables take a bitstream (409). */
  NOT_PROGRAMMABLE: 'DEPLOYABLE.NOT_PROGRAMMABLE',
} as const;

/**
 * Program a deployable. The caller looks the deployable up and passes what
 * the job needs; `deviceType` is the device's reported type. `jobId` and
 * `requestedAt` come from the caller, as the domain has no clock.
 */
export interface RequestProgramming {
  readonly type: 'RequestProgramming';
  readonly jobId: string;
  readonly hostname: string;
  readonly deviceUuid: string;
  readonly deviceType: DeviceType;
  readonly deployableUuid: string;
  readonly imageUuid: string;
  readonly requestedAt: string;
}

export type DeviceJobCommand = RequestProgramming;

export interface DeviceJobState {
  readonly requested: boolean;
}

/** One job (stream `job-<jobId>`). A repeated request for the same job id appends nothing. */
export const deviceJobDecider: Decider<DeviceJobCommand, DeviceJobState, DeviceJobEvent> = {
  decide(command, state) {
    for (const path of ['jobId', 'deviceUuid', 'deployableUuid', 'imageUuid'] as const) {
      if (!isUuid(command[path])) throw new ValidationError(DeviceJobErrorCodes.INVALID, `${path} must be a uuid`, { path });
    }
    if (command.deviceType !== 'FPGA') {
      throw new ConflictError(
        DeviceJobErrorCodes.NOT_PROGRAMMABLE,
        `deployable ${command.deployableUuid} is on a ${command.deviceType} device; only FPGA deployables can be programmed`,
        { deployableUuid: command.deployableUuid, deviceType: command.deviceType },
      );
    }
    if (state.requested) return [];
    const { jobId, hostname, deviceUuid, deployableUuid, imageUuid, requestedAt } = command;
    return [
      {
        type: 'programming.JobRequested',
        data: {
          jobId: jobId.toLowerCase(),
          kind: 'program',
          hostname,
          deviceUuid: deviceUuid.toLowerCase(),
          deployableUuid: deployableUuid.toLowerCase(),
          imageUuid: imageUuid.toLowerCase(),
          requestedAt,
        },
      },
    ];
  },
  evolve: (state, event) => (event.type === 'programming.JobRequested' ? { requested: true } : state),
  initialState: () => ({ requested: false }),
};
