import { compareCodeUnits, type DesiredHostPlacement, type DesiredPlacementSource, desiredHostPlacement, type ProviderFacts } from '@ledger/placement';
import { readCheckpoint, selectByKeys, type SqlExecutor } from '@ledger/processing';
import { deployableRowFrom, deviceRowFrom, hostRowFrom, programJobRowFrom, type DeployableRow, type DeviceRow, type ProgramJobRow } from './placement.rows';

type Row = Record<string, unknown>;

/** The desired Placement state as the reconciler and the API read it. */
export class PlacementQueries implements DesiredPlacementSource {
  constructor(private readonly db: SqlExecutor) {}

  /** The log position the read model has processed up to (0 before its first batch). */
  async position(): Promise<number> {
    return Number((await readCheckpoint(this.db, 'placement'))?.position ?? 0);
  }

  async hostnames(): Promise<readonly string[]> {
    return (await this.db.all<{ hostname: string }>('SELECT hostname FROM pl_hosts')).map((row) => row.hostname).sort(compareCodeUnits);
  }

  /**
   * The hosts of these devices and program jobs, for events that name only
   * the device or the job; a job that is not a program job has no row (it
   * changes no provider).
   */
  async hostsOf(keys: { readonly deviceUuids: Iterable<string>; readonly jobIds: Iterable<string> }): Promise<string[]> {
    const devices = await selectByKeys<{ hostname: string | null }>(this.db, 'pl_devices', 'device_uuid', keys.deviceUuids);
    const jobs = await selectByKeys<{ hostname: string }>(this.db, 'pl_program_jobs', 'job_id', keys.jobIds);
    return [...new Set([...devices, ...jobs].flatMap((row) => (row.hostname ? [row.hostname] : [])))].sort(compareCodeUnits);
  }

  /** Whether the host is fenced (HostFenced, no HostUnfenced since); false for a host never seen. */
  async isFenced(hostname: string): Promise<boolean> {
    const row = await this.db.get<{ fenced: unknown }>('SELECT fenced FROM pl_hosts WHERE hostname = $1', [hostname]);
    return Number(row?.fenced ?? 0) === 1;
  }

  async host(hostname: string): Promise<DesiredHostPlacement | undefined> {
    const position = await this.position();
    const host = await this.db.get<Row>('SELECT * FROM pl_hosts WHERE hostname = $1', [hostname]);
    if (!host) return undefined;
    const [deployables, devices, jobs] = await Promise.all([
      this.db.all<Row>('SELECT * FROM pl_deployables WHERE hostname = $1', [hostname]),
      this.db.all<Row>('SELECT * FROM pl_devices WHERE hostname = $1', [hostname]),
      this.db.all<Row>("SELECT * FROM pl_program_jobs WHERE hostname = $1 AND (state = 'running' OR function_id IS NOT NULL)", [hostname]),
    ]);
    const devicesByUuid = new Map(devices.map(deviceRowFrom).map((row) => [row.device_uuid, row]));
    const hostRow = hostRowFrom(host);
    const hostFacts = { agentLost: hostRow.agent_lost === 1, hostOutOfService: hostRow.out_of_service === 1, hostFenced: hostRow.fenced === 1 };
    const programJobs = jobs.map(programJobRowFrom);
    const facts = deployables.map(deployableRowFrom).map((row) => providerFacts(row, devicesByUuid.get(row.device_uuid), hostFacts, programJobs));
    return desiredHostPlacement(hostname, facts, position);
  }
}

function providerFacts(
  row: DeployableRow,
  device: DeviceRow | undefined,
  host: Pick<ProviderFacts, 'agentLost' | 'hostOutOfService' | 'hostFenced'>,
  jobs: readonly ProgramJobRow[],
): ProviderFacts {
  const own = jobs.filter((job) => job.deployable_uuid === row.deployable_uuid);
  const lastProgrammed = own
    .filter((job) => job.function_id !== null && job.finished_position! > row.traits_position)
    .sort((a, b) => b.finished_position! - a.finished_position!)[0];
  return {
    deployableUuid: row.deployable_uuid,
    deviceUuid: row.device_uuid,
    name: row.name,
    rpUuid: row.rp_uuid,
    resourceClass: row.resource_class,
    count: row.count,
    reportedTraits: JSON.parse(row.traits) as string[],
    driverName: row.driver_name,
    deviceDisabled: device?.disabled === 1,
    deviceHealth: device?.health ?? 'none',
    ...host,
    programInFlight: own.some((job) => job.state === 'running'),
    programmedFunctionId: lastProgrammed?.function_id ?? null,
    dirtyHandles: JSON.parse(device?.dirty_handles ?? '{}') as Record<string, string>,
  };
}
