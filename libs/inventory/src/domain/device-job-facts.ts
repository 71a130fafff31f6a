import { ConflictError, isUuid, ValidationError } from '@ledger/kernel';
import { hostnameProblem } from './hostname';
import { InventoryErrorCodes } from './inventory.errors';
import type { DeviceJobEvent, DeviceJobRequester, RegionProgrammed, RegionProgramFailed, ShellProgrammed, VfsConfigured } from './inventory.events';

/**
 * What a finished program or configure-vfs job did to the device, sent by
 * the job-facts reactor (libs/inventory/src/job-facts) as a command: each is the fact's
 * data under a command type. Idempotent by job id.
 */
export type RecordRegionProgrammed = { readonly type: 'RecordRegionProgrammed' } & RegionProgrammed['data'];
export type RecordRegionProgramFailed = { readonly type: 'RecordRegionProgramFailed' } & RegionProgramFailed['data'];
export type RecordShellProgrammed = { readonly type: 'RecordShellProgrammed' } & ShellProgrammed['data'];
export type RecordVfsConfigured = { readonly type: 'RecordVfsConfigured' } & VfsConfigured['data'];

export type DeviceJobCommand = RecordRegionProgrammed | RecordRegionProgramFailed | RecordShellProgrammed | RecordVfsConfigured;

/** The fact each job already made on this device, by job id. */
export type DeviceJobFacts = Readonly<Record<string, DeviceJobEvent['type']>>;

const FACT_OF = {
  RecordRegionProgrammed: 'inventory.RegionProgrammed',
  RecordRegionProgramFailed: 'inventory.RegionProgramFailed',
  RecordShellProgrammed: 'inventory.ShellProgrammed',
  RecordVfsConfigured: 'inventory.VfsConfigured',
} as const satisfies Record<DeviceJobCommand['type'], DeviceJobEvent['type']>;

/** FPGA function and interface ids: 128 bits, as the agent reads them back and the bitstream registry stores them. */
const FPGA_ID = /^[0-9a-f]{32}$/;
const SHA256 = /^[0-9a-f]{64}$/;
/** As jobs.JobFailed accepts failure codes. */
const CODE = /^[A-Z][A-Z0-9_]*(\.[A-Z][A-Z0-9_]*)*$/;
const MAX_TEXT = 1024;
/** Most VFs a PF can have (PCIe's TotalVFs is 16 bits, real cards stay far below). */
export const MAX_CONFIGURED_VFS = 65_535;

/**
 * The fact a device-job command makes: nothing when this job's fact is
 * recorded already, JOB_FACT_CONFLICT when the job made another fact (a job
 * ends one way), COMMAND_INVALID (with `path`) for a malformed member.
 */
export function decideDeviceJobFact(deviceUuid: string, command: DeviceJobCommand, facts: DeviceJobFacts): DeviceJobEvent[] {
  const { type: _type, ...data } = command;
  const jobId = uuidAt(data.jobId, 'jobId');
  const hostnameIssue = hostnameProblem(data.hostname);
  if (hostnameIssue) throw invalid('hostname', hostnameIssue);
  const common = { deviceUuid, hostname: data.hostname, jobId, requestedBy: requesterOf(data.requestedBy) };
  const event = { type: FACT_OF[command.type], data: { ...data, ...common, ...normalized(command) } } as DeviceJobEvent;
  const recorded = facts[jobId];
  if (recorded === event.type) return [];
  if (recorded !== undefined) {
    throw new ConflictError(InventoryErrorCodes.JOB_FACT_CONFLICT, `job ${jobId} already made ${recorded} on device ${deviceUuid}, not ${event.type}`, {
      deviceUuid,
      jobId,
      recorded,
    });
  }
  return [event];
}

export const evolveDeviceJobFacts = (facts: DeviceJobFacts | undefined, event: DeviceJobEvent): DeviceJobFacts => ({
  ...facts,
  [event.data.jobId]: event.type,
});

/** The members each command checks and normalises beyond the common ones. */
function normalized(command: DeviceJobCommand): Record<string, unknown> {
  switch (command.type) {
    case 'RecordRegionProgrammed':
      return {
        ...regionOf(command),
        sha256: nullableAt(command.sha256, 'sha256', SHA256),
        functionId: fpgaIdAt(command.functionId, 'functionId'),
        previousFunctionId: nullableFpgaIdAt(command.previousFunctionId, 'previousFunctionId'),
        programmedAt: timeAt(command.programmedAt, 'programmedAt'),
      };
    case 'RecordRegionProgramFailed': {
      const holds = command.regionHolds;
      if (holds !== null && typeof holds !== 'object') throw invalid('regionHolds', 'must be {functionId} or null');
      return {
        ...regionOf(command),
        code: textAt(command.code, 'code', 64, CODE),
        reason: textAt(command.reason, 'reason', MAX_TEXT),
        regionHolds: holds === null ? null : { functionId: nullableFpgaIdAt(holds.functionId, 'regionHolds.functionId') },
        deviceState: command.deviceState === null ? null : textAt(command.deviceState, 'deviceState', MAX_TEXT),
        failedAt: timeAt(command.failedAt, 'failedAt'),
      };
    }
    case 'RecordShellProgrammed':
      return {
        bitstreamId: command.bitstreamId === null ? null : uuidAt(command.bitstreamId, 'bitstreamId'),
        sha256: nullableAt(command.sha256, 'sha256', SHA256),
        interfaceId: fpgaIdAt(command.interfaceId, 'interfaceId'),
        previousInterfaceId: nullableFpgaIdAt(command.previousInterfaceId, 'previousInterfaceId'),
        programmedAt: timeAt(command.programmedAt, 'programmedAt'),
      };
    case 'RecordVfsConfigured':
      return {
        numVfs: vfCountAt(command.numVfs, 'numVfs'),
        previousNumVfs: command.previousNumVfs === null ? null : vfCountAt(command.previousNumVfs, 'previousNumVfs'),
        configuredAt: timeAt(command.configuredAt, 'configuredAt'),
      };
  }
}

function regionOf(command: RecordRegionProgrammed | RecordRegionProgramFailed) {
  return {
    deployableUuid: uuidAt(command.deployableUuid, 'deployableUuid'),
    region: command.region === null ? null : textAt(command.region, 'region', 200),
    bitstreamId: command.bitstreamId === null ? null : uuidAt(command.bitstreamId, 'bitstreamId'),
  };
}

function requesterOf(requester: DeviceJobRequester): DeviceJobRequester {
  if (typeof requester !== 'object' || requester === null) throw invalid('requestedBy', 'must be {user, project, workflow}');
  return {
    user: textAt(requester.user, 'requestedBy.user', 255),
    project: requester.project === null ? null : textAt(requester.project, 'requestedBy.project', 255),
    workflow: requester.workflow === null ? null : textAt(requester.workflow, 'requestedBy.workflow', 255),
  };
}

const invalid = (path: string, rule: string) => new ValidationError(InventoryErrorCodes.COMMAND_INVALID, `${path} ${rule}`, { path });

function uuidAt(value: unknown, path: string): string {
  if (!isUuid(value)) throw invalid(path, 'must be a uuid');
  return value.toLowerCase();
}

function textAt(value: unknown, path: string, max: number, pattern?: RegExp): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max || (pattern && !pattern.test(value))) {
    throw invalid(path, `must be a text of 1–${max} characters${pattern ? ` matching ${pattern.source}` : ''}`);
  }
  return value;
}

function nullableAt(value: unknown, path: string, pattern: RegExp): string | null {
  if (value === null) return null;
  const normalized = typeof value === 'string' ? value.toLowerCase() : '';
  if (!pattern.test(normalized)) throw invalid(path, `must be null or match ${pattern.source}`);
  return normalized;
}

/** Dashes are dropped: Xilinx tools print ids as uuids, Intel's sysfs as plain hex. */
function fpgaIdAt(value: unknown, path: string): string {
  const id = typeof value === 'string' ? value.replace(/-/g, '').toLowerCase() : '';
  if (!FPGA_ID.test(id)) throw invalid(path, 'must be 32 hex digits (a uuid, dashes optional)');
  return id;
}

const nullableFpgaIdAt = (value: unknown, path: string): string | null => (value === null ? null : fpgaIdAt(value, path));

function vfCountAt(value: unknown, path: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) > MAX_CONFIGURED_VFS) {
    throw invalid(path, `must be an integer from 0 to ${MAX_CONFIGURED_VFS}`);
  }
  return value as number;
}

function timeAt(value: unknown, path: string): string {
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw invalid(path, 'must be an ISO-8601 time');
  return value;
}
