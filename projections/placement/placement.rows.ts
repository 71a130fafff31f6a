/**
 * Rows of the placement projection's tables. `position` columns hold the
 * global position of the last event applied to the row: an event at or
 * below it was applied before and changes nothing (a host's or device's
 * facts come from more than one stream, so a stream version would not do).
 */
export interface HostRow {
  hostname: string;
  agent_lost: number;
  /** 1 while a provisioning runs and after one failed (inventory.HostProvision*): the host is not in service. */
  out_of_service: number;
  /** 1 from inventory.HostFenced until inventory.HostUnfenced. */
  fenced: number;
  position: number;
}

/** A device outlives its removal (removed = 1): maintenance and health live on its own stream and hold when it comes back. */
export interface DeviceRow {
  device_uuid: string;
  hostname: string | null;
  removed: number;
  disabled: number;
  /** The health policy's effect (`none`, `watch`, `reserve`, `drain`): what Placement reserves by. */
  health: string;
  /** Canonical JSON `{handleUuid: status}` of the released handles not yet clean (inventory.DeviceCleaning*). */
  dirty_handles: string;
  position: number;
}

/** A reported deployable; written only under its device row's position guard. */
export interface DeployableRow {
  deployable_uuid: string;
  device_uuid: string;
  hostname: string;
  name: string;
  rp_uuid: string;
  resource_class: string;
  count: number;
  /** Canonical JSON array, as reported (sorted). */
  traits: string;
  driver_name: string | null;
  /** Where the report last changed the traits: a program job finished later overrides the function trait. */
  traits_position: number;
}

export type ProgramJobState = 'running' | 'completed' | 'failed';

/** A `program` job: in flight while running; once completed, the function id it read back. */
export interface ProgramJobRow {
  job_id: string;
  hostname: string;
  deployable_uuid: string;
  state: ProgramJobState;
  function_id: string | null;
  finished_position: number | null;
}

export const HOST_COLUMNS = ['hostname', 'agent_lost', 'out_of_service', 'fenced', 'position'] as const satisfies readonly (keyof HostRow)[];
export const DEVICE_COLUMNS = ['device_uuid', 'hostname', 'removed', 'disabled', 'health', 'dirty_handles', 'position'] as const satisfies readonly (keyof DeviceRow)[];
export const DEPLOYABLE_COLUMNS = [
  'deployable_uuid',
  'device_uuid',
  'hostname',
  'name',
  'rp_uuid',
  'resource_class',
  'count',
  'traits',
  'driver_name',
  'traits_position',
] as const satisfies readonly (keyof DeployableRow)[];
export const PROGRAM_JOB_COLUMNS = [
  'job_id',
  'hostname',
  'deployable_uuid',
  'state',
  'function_id',
  'finished_position',
] as const satisfies readonly (keyof ProgramJobRow)[];

/** Integer columns as numbers: PostgreSQL returns BIGINT as text. */
const numbers = <Row>(row: Record<string, unknown>, columns: readonly string[]): Row =>
  Object.fromEntries(Object.entries(row).map(([column, value]) => [column, columns.includes(column) && value !== null ? Number(value) : value])) as Row;

export const hostRowFrom = (row: Record<string, unknown>): HostRow => numbers(row, ['agent_lost', 'out_of_service', 'fenced', 'position']);
export const deviceRowFrom = (row: Record<string, unknown>): DeviceRow => numbers(row, ['removed', 'disabled', 'position']);
export const deployableRowFrom = (row: Record<string, unknown>): DeployableRow => numbers(row, ['count', 'traits_position']);
export const programJobRowFrom = (row: Record<string, unknown>): ProgramJobRow => numbers(row, ['finished_position']);
