import { deviceJobDecider, type RequestProgramming } from './device-job.decider';
import type { DeviceJobEvent } from './device-job.events';
import { deciderSpec } from '@ledger/eventstore/testing';

const spec = deciderSpec(deviceJobDecider);
const request: RequestProgramming = {
  type: 'RequestProgramming',
  jobId: '0196B3C2-0000-7000-8000-0000000000AA',
  hostname: 'compute-1',
  deviceUuid: '17107e20-ed18-50ad-92a6-e82078f0e0f2',
  deviceType: 'FPGA',
  deployableUuid: 'b0a7f0c4-6a3e-5c55-9d0e-1e5a0c1f2a3b',
  imageUuid: '9e1b8a2c-4d3e-4f5a-8b6c-7d8e9f0a1b2c',
  requestedAt: '2026-03-01T10:00:00.000Z',
};
const requested: DeviceJobEvent = {
  type: 'programming.JobRequested',
  data: {
    jobId: '0196b3c2-0000-7000-8000-0000000000aa',
    kind: 'program',
    hostname: 'compute-1',
    deviceUuid: request.deviceUuid,
    deployableUuid: request.deployableUuid,
    imageUuid: request.imageUuid,
    requestedAt: request.requestedAt,
  },
};

describe('deviceJobDecider', () => {
  it('records a programming request once per job id', () => {
    spec.given([]).when(request).then([requested]);
    spec.given([requested]).when(request).then([]);
  });

  it('refuses to program anything but an FPGA with 409', () => {
    const error = spec.given([]).when({ ...request, deviceType: 'GPU' }).thenThrows('DEPLOYABLE.NOT_PROGRAMMABLE', { deviceType: 'GPU' });
    expect(error.status).toBe(409);
  });

  it('refuses an image id that is not a uuid', () => {
    spec.given([]).when({ ...request, imageUuid: 'bitstream.gbs' }).thenThrows('JOB.INVALID', { path: 'imageUuid' });
  });
});
