import { deciderSpec } from '@ledger/eventstore/testing';
import type { DeviceJobCommand, RecordRegionProgrammed, RecordRegionProgramFailed, RecordShellProgrammed, RecordVfsConfigured } from './device-job-facts';
import type { DeviceJobEvent } from './inventory.events';
import { deviceDecider } from './device.decider';

const DEVICE = '17107e20-ed18-50ad-92a6-e82078f0e0f2';
const DEPLOYABLE = 'b0a7f0c4-6a3e-5c55-9d0e-1e5a0c1f2a3b';
const JOB = '0196b3c2-0000-7000-8000-000000000001';
const JOB_2 = '0196b3c2-0000-7000-8000-000000000002';
const BITSTREAM = '0196b3c2-0000-7000-8000-0000000000b5';
const FUNCTION = '9f'.repeat(16);
const SHA = 'ab'.repeat(32);
const AT = '2026-03-01T10:00:00.000Z';
const spec = deciderSpec(deviceDecider);
const requestedBy = { user: 'ops', project: 'p-ops', workflow: null };

const programmed: RecordRegionProgrammed = {
  type: 'RecordRegionProgrammed',
  deviceUuid: DEVICE,
  hostname: 'compute-1',
  jobId: JOB,
  requestedBy,
  deployableUuid: DEPLOYABLE,
  region: null,
  bitstreamId: BITSTREAM,
  sha256: SHA,
  functionId: FUNCTION,
  previousFunctionId: null,
  programmedAt: AT,
};
const failed: RecordRegionProgramFailed = {
  type: 'RecordRegionProgramFailed',
  deviceUuid: DEVICE,
  hostname: 'compute-1',
  jobId: JOB_2,
  requestedBy,
  deployableUuid: DEPLOYABLE,
  region: 'compute-1_0000:3b:00.0_region1',
  bitstreamId: null,
  code: 'DRIVER.INJECTED_FAILURE',
  reason: 'simulated program failure',
  regionHolds: { functionId: FUNCTION },
  deviceState: `previous function ${FUNCTION} restored`,
  failedAt: AT,
};
const shell: RecordShellProgrammed = {
  type: 'RecordShellProgrammed',
  deviceUuid: DEVICE,
  hostname: 'compute-1',
  jobId: JOB,
  requestedBy: { user: 'workflow:provision', project: null, workflow: 'provision-compute-1' },
  bitstreamId: null,
  sha256: SHA,
  interfaceId: 'C7A1B2C3-D4E5-F607-1829-3A4B5C6D7E8F',
  previousInterfaceId: null,
  programmedAt: AT,
};
const vfs: RecordVfsConfigured = {
  type: 'RecordVfsConfigured',
  deviceUuid: DEVICE,
  hostname: 'compute-1',
  jobId: JOB,
  requestedBy,
  numVfs: 8,
  previousNumVfs: 4,
  configuredAt: AT,
};
/** The fact a command makes: its data under the event type. */
const factOf = ({ type: _type, ...data }: DeviceJobCommand, type: DeviceJobEvent['type']) => ({ type, data }) as DeviceJobEvent;

describe('deviceDecider: what finished jobs did to the device', () => {
  it('records a programmed region with the function read back and who asked', () => {
    spec.given([]).when(programmed).then([factOf(programmed, 'inventory.RegionProgrammed')]);
  });

  it('records a failed program with what the region holds now', () => {
    spec.given([]).when(failed).then([factOf(failed, 'inventory.RegionProgramFailed')]);
  });

  it('records a programmed shell with its interface id normalised to 32 hex digits', () => {
    spec
      .given([])
      .when(shell)
      .then([factOf({ ...shell, interfaceId: 'c7a1b2c3d4e5f60718293a4b5c6d7e8f' }, 'inventory.ShellProgrammed')]);
  });

  it('records configured VFs', () => {
    spec.given([]).when(vfs).then([factOf(vfs, 'inventory.VfsConfigured')]);
  });

  it('appends nothing when the same job is recorded again (the reactor re-sends after a crash)', () => {
    const recorded = spec.given([]).when(programmed).events();
    spec.given(recorded).when(programmed).then([]);
    spec.given(recorded).when({ ...programmed, jobId: JOB.toUpperCase() }).then([]);
  });

  it('records another job of the same kind', () => {
    const recorded = spec.given([]).when(programmed).events();
    spec.given(recorded).when({ ...programmed, jobId: JOB_2 }).then([factOf({ ...programmed, jobId: JOB_2 }, 'inventory.RegionProgrammed')]);
  });

  it('refuses a second, different outcome of one job', () => {
    const recorded = spec.given([]).when(programmed).events();
    spec.given(recorded).when({ ...failed, jobId: JOB }).thenThrows('INVENTORY.JOB_FACT_CONFLICT', { jobId: JOB, recorded: 'inventory.RegionProgrammed' });
  });

  it('keeps its other state: job facts do not touch maintenance or claims', () => {
    const recorded = spec.given([]).when(vfs).events();
    expect(spec.given(recorded).state).toEqual({ status: 'enabled', reason: null, claims: {}, jobFacts: { [JOB]: 'inventory.VfsConfigured' } });
  });

  it.each([
    ['jobId', { ...programmed, jobId: 'job-1' }],
    ['hostname', { ...programmed, hostname: 'bad host' }],
    ['deployableUuid', { ...programmed, deployableUuid: 'region0' }],
    ['functionId', { ...programmed, functionId: 'nlb0' }],
    ['sha256', { ...programmed, sha256: 'abc' }],
    ['previousFunctionId', { ...programmed, previousFunctionId: '' }],
    ['requestedBy.user', { ...programmed, requestedBy: { ...requestedBy, user: '' } }],
    ['code', { ...failed, code: 'lower.case' }],
    ['regionHolds.functionId', { ...failed, regionHolds: { functionId: 'x' } }],
    ['interfaceId', { ...shell, interfaceId: null as unknown as string }],
    ['numVfs', { ...vfs, numVfs: -1 }],
    ['previousNumVfs', { ...vfs, previousNumVfs: 1.5 }],
    ['configuredAt', { ...vfs, configuredAt: 'yesterday' }],
  ])('refuses a malformed %s, appending nothing', (path, command) => {
    spec.given([]).when(command).thenThrows('INVENTORY.COMMAND_INVALID', { path });
  });
});
