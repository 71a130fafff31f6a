/** A row of `jobs`, as the projection keeps it in memory (numbers as numbers). */
export interface JobRow {
  job_id: string;
  hostname: string;
  kind: string;
  /** JSON. */
  params: string;
  timeout_seconds: number;
  state: string;
  attempt: number;
  agent_boot: string | null;
  requested_at: string;
  deadline: string;
  requested_position: number;
  dispatched_at: string | null;
  finished_at: string | null;
  code: string | null;
  reason: string | null;
  /** JSON, once finished. */
  evidence: string | null;
  /** 1 once a driver job's host-stream fact is projected. */
  driver_fact: number;
  stream_version: number;
}

/** A row of `job_host_drivers`. */
export interface DriverRow {
  hostname: string;
  driver: string;
  status: 'installed' | 'uninstalled' | 'failed';
  version: string | null;
  installed_at: string | null;
  /** JSON of the last playbook's recap. */
  recap: string | null;
  last_job_id: string;
  /** JSON `{operation, reason, failedAt}` of the last failure since the last success. */
  last_failure: string | null;
  updated_at: string;
  stream_version: number;
}

export const JOB_COLUMNS = [
  'job_id',
  'hostname',
  'kind',
  'params',
  'timeout_seconds',
  'state',
  'attempt',
  'agent_boot',
  'requested_at',
  'deadline',
  'requested_position',
  'dispatched_at',
  'finished_at',
  'code',
  'reason',
  'evidence',
  'driver_fact',
  'stream_version',
] as const satisfies readonly (keyof JobRow)[];

export const DRIVER_COLUMNS = [
  'hostname',
  'driver',
  'status',
  'version',
  'installed_at',
  'recap',
  'last_job_id',
  'last_failure',
  'updated_at',
  'stream_version',
] as const satisfies readonly (keyof DriverRow)[];

/** PostgreSQL returns BIGINT as text; the projection compares numbers. */
export function jobRowFrom(row: Record<string, unknown>): JobRow {
  return {
    ...(row as unknown as JobRow),
    timeout_seconds: Number(row.timeout_seconds),
    attempt: Number(row.attempt),
    requested_position: Number(row.requested_position),
    driver_fact: Number(row.driver_fact),
    stream_version: Number(row.stream_version),
  };
}

export function driverRowFrom(row: Record<string, unknown>): DriverRow {
  return { ...(row as unknown as DriverRow), stream_version: Number(row.stream_version) };
}
