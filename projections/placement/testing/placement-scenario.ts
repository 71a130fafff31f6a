import { deployableUuidOf, deviceUuidOf } from '@ledger/inventory';
import { a100, arria10, x710 } from '../../../libs/inventory/src/domain/testing/host-report.fixtures';
import { at, type PlacementStep } from './placement-history';

/** Job and image ids of the scenario: uuids numbered n. */
export const id = (n: number): string => `0196b3c2-0000-7000-8000-${String(n).padStart(12, '0')}`;

export const devices = {
  gpu1: deviceUuidOf('compute-1', '0000:3b:00.0'),
  fpga1: deviceUuidOf('compute-1', '0000:5e:00.0'),
  nic1: deviceUuidOf('compute-1', '0000:af:00.0'),
  gpu2: deviceUuidOf('compute-2', '0000:18:00.0'),
};
export const fpgaDeployable = deployableUuidOf(devices.fpga1, '0000:5e:00.0-region0');
export const FUNCTION_ID = '9a8b7c6d5e4f30211203948576abcdef';

const program = (n: number, seconds: number): PlacementStep => ({
  type: 'RequestJob',
  jobId: id(n),
  hostname: 'compute-1',
  kind: 'program',
  params: { deviceUuid: devices.fpga1, deployableUuid: fpgaDeployable, pciAddress: '0000:5e:00.0', image: { imageUuid: id(99) } },
  requestedAt: at(seconds),
});

/**
 * Three hosts: compute-1 with a GPU disabled for maintenance, an FPGA
 * programmed twice (one job failing) and a NIC that fails and then leaves
 * the report; compute-2 with a degraded GPU and its agent lost; compute-3
 * with no accelerators. A configure-vfs job and a shell load (it names the
 * device, no region) pass by unnoticed.
 */
export const placementScenario: PlacementStep[] = [
  { hostname: 'compute-1', report: [a100('0000:3b:00.0'), arria10('0000:5e:00.0', 2), x710('0000:af:00.0')] },
  { hostname: 'compute-2', report: [a100('0000:18:00.0')] },
  { hostname: 'compute-3', report: [] },
  { type: 'DisableDevice', deviceUuid: devices.gpu1, reason: 'fan failure' },
  { type: 'RecordDeviceHealth', deviceUuid: devices.nic1, health: 'failed', reason: 'link down', observedAt: at(4) },
  { type: 'RecordDeviceHealth', deviceUuid: devices.gpu2, health: 'degraded', reason: 'ECC single-bit', observedAt: at(5) },
  { type: 'MarkAgentLost', hostname: 'compute-2', lastSeenAt: at(5), detectedAt: at(60) },
  program(1, 61),
  program(2, 62),
  { type: 'DispatchJob', jobId: id(2), hostname: 'compute-1', agentBoot: id(98), dispatchedAt: at(63) },
  { type: 'CompleteJob', jobId: id(2), evidence: { functionId: FUNCTION_ID, sha256: 'ab'.repeat(32), previousFunctionId: null }, completedAt: at(64) },
  { type: 'FailJob', jobId: id(1), code: 'DRIVER.TOOL_FAILED', reason: 'fpgaconf exited 1', evidence: {}, failedAt: at(65) },
  { type: 'RequestJob', jobId: id(3), hostname: 'compute-1', kind: 'configure-vfs', params: { deviceUuid: devices.fpga1, pciAddress: '0000:5e:00.0', numVfs: 2 }, requestedAt: at(66) },
  { type: 'CompleteJob', jobId: id(3), evidence: { numVfs: 2 }, completedAt: at(67) },
  {
    type: 'RequestJob',
    jobId: id(4),
    hostname: 'compute-1',
    kind: 'program',
    params: { deviceUuid: devices.fpga1, pciAddress: '0000:5e:00.0', target: 'shell', image: { imageUuid: id(97) } },
    requestedAt: at(67),
  },
  { type: 'CompleteJob', jobId: id(4), evidence: { target: 'shell', interfaceId: 'c'.repeat(32), sha256: 'cd'.repeat(32), previousInterfaceId: null }, completedAt: at(67) },
  { hostname: 'compute-1', report: [a100('0000:3b:00.0'), arria10('0000:5e:00.0', 2)] },
];
