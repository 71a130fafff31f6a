import type { ArqStateName } from '@ledger/allocation';
import type { SqlDatabase } from '@ledger/processing';

/** One accelerator request as the read model holds it. */
export interface ArqView {
  readonly uuid: string;
  readonly state: ArqStateName;
  readonly deviceProfileUuid: string;
  readonly deviceProfileName: string;
  readonly deviceProfileGroupId: number;
  readonly resourceClass: string;
  readonly hostname: string | null;
  readonly deviceRpUuid: string | null;
  readonly instanceUuid: string | null;
  readonly projectId: string;
  readonly deviceUuid: string | null;
  readonly attachHandleUuid: string | null;
  readonly attachHandleType: string;
  readonly attachHandleInfo: Record<string, string>;
  readonly createdAt: string;
  readonly updatedAt: string | null;
  /** The workflow id of its latest bind (`GET /api/v1/workflows/bind/{id}`), kept after an unbind; null before its first. Not on /v2: Cyborg's format has no such field. */
  readonly lastBindId: string | null;
}

interface ArqRow {
  uuid: string;
  project_id: string;
  state: ArqStateName;
  device_profile_uuid: string;
  device_profile_name: string;
  device_profile_group_id: number | string;
  resource_class: string;
  hostname: string | null;
  device_rp_uuid: string | null;
  instance_uuid: string | null;
  device_uuid: string | null;
  attach_handle_uuid: string | null;
  attach_handle_type: string;
  attach_handle_info: string;
  created_at: string;
  updated_at: string | null;
  last_bind_id: string | null;
}

/** Limits a read to one project's requests, or none (admins). */
export type ProjectScope = { readonly project: string } | 'all-projects';

const COLUMNS = `uuid, project_id, state, device_profile_uuid, device_profile_name, device_profile_group_id, resource_class, hostname,
  device_rp_uuid, instance_uuid, device_uuid, attach_handle_uuid, attach_handle_type, attach_handle_info, created_at, updated_at, last_bind_id`;

/** Reads of the accelerator-request read model. Tenant filtering happens here, in the query. */
export class ArqQueries {
  constructor(private readonly db: SqlDatabase) {}

  async list(scope: ProjectScope, filter: { instanceUuid?: string } = {}): Promise<ArqView[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (scope !== 'all-projects') where.push(`project_id = $${params.push(scope.project)}`);
    if (filter.instanceUuid !== undefined) where.push(`instance_uuid = $${params.push(filter.instanceUuid)}`);
    const rows = await this.db.all<ArqRow>(
      `SELECT ${COLUMNS} FROM arq_requests ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, uuid`,
      params,
    );
    return rows.map(toView);
  }

  async get(uuid: string, scope: ProjectScope): Promise<ArqView | undefined> {
    const params: unknown[] = [uuid];
    const project = scope === 'all-projects' ? '' : ` AND project_id = $${params.push(scope.project)}`;
    const row = await this.db.get<ArqRow>(`SELECT ${COLUMNS} FROM arq_requests WHERE uuid = $1${project}`, params);
    return row ? toView(row) : undefined;
  }

  /** Requests (in any state) that still reference a device profile: such a profile cannot be deleted. */
  async countLiveByProfile(profileUuid: string): Promise<number> {
    const row = await this.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM arq_requests WHERE device_profile_uuid = $1', [profileUuid]);
    return Number(row?.n ?? 0);
  }
}

function toView(row: ArqRow): ArqView {
  return {
    uuid: row.uuid,
    state: row.state,
    deviceProfileUuid: row.device_profile_uuid,
    deviceProfileName: row.device_profile_name,
    deviceProfileGroupId: Number(row.device_profile_group_id),
    resourceClass: row.resource_class,
    hostname: row.hostname,
    deviceRpUuid: row.device_rp_uuid,
    instanceUuid: row.instance_uuid,
    projectId: row.project_id,
    deviceUuid: row.device_uuid,
    attachHandleUuid: row.attach_handle_uuid,
    attachHandleType: row.attach_handle_type,
    attachHandleInfo: JSON.parse(row.attach_handle_info) as Record<string, string>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastBindId: row.last_bind_id,
  };
}
