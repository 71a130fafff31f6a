import type { SqlExecutor } from '@ledger/processing';
import type { TenancyView, TimelineEntry, TimelinePage } from './device-history.views';

/** Which projects' rows a caller sees: `all` for operators and auditors, else one project's. */
export type ProjectScope = { readonly all: true } | { readonly project: string };

/**
 * Positions, both ends included. A time must be resolved to the last event
 * recorded at or before it first (`positionOfPoint` in libs/processing):
 * compared with the rows' times instead, a tenancy released just before a
 * `from` time would drop out though the log was still at its release.
 */
export interface TenancyRange {
  readonly from?: number;
  readonly to?: number;
}

interface TenancyRow {
  device_uuid: string;
  deployable_uuid: string;
  attach_handle_uuid: string;
  region: string | null;
  arq_uuid: string;
  instance_uuid: string | null;
  project_id: string | null;
  device_profile_uuid: string | null;
  device_profile_name: string | null;
  bitstream_id: string | null;
  from_position: number | string;
  from_time: string;
  to_position: number | string | null;
  to_time: string | null;
}

const DEFAULT_TIMELINE_PAGE = 100;

/**
 * Reads of the device-history projection, for REST, GraphQL and
 * `ledgerctl audit who-held`. The caller's scope is an argument: the
 * filter is in the query, not only in the policy check.
 */
export class DeviceHistoryQueries {
  constructor(private readonly db: SqlExecutor) {}

  /** Tenancies of a device that overlap [from, to] (either end open), oldest first. */
  async tenancies(deviceUuid: string, range: TenancyRange, scope: ProjectScope): Promise<TenancyView[]> {
    const args: unknown[] = [deviceUuid.toLowerCase()];
    const where = ['device_uuid = $1'];
    if (range.to !== undefined) where.push(`from_position <= $${args.push(range.to)}`);
    if (range.from !== undefined) where.push(`(to_position IS NULL OR to_position >= $${args.push(range.from)})`);
    if ('project' in scope) {
      args.push(scope.project);
      where.push(`project_id = $${args.length}`);
    }
    const rows = await this.db.all<TenancyRow>(`SELECT * FROM dh_tenancies WHERE ${where.join(' AND ')} ORDER BY from_position`, args);
    return rows.map(tenancyView);
  }

  /** A device's timeline in log order, a page at a time after a position. */
  async timeline(deviceUuid: string, page: { readonly after?: number; readonly limit?: number }, scope: ProjectScope): Promise<TimelinePage> {
    const limit = page.limit ?? DEFAULT_TIMELINE_PAGE;
    const args: unknown[] = [deviceUuid.toLowerCase(), page.after ?? 0, limit + 1];
    const ownOnly = 'project' in scope ? ` AND project_id = $${args.push(scope.project)}` : '';
    const rows = await this.db.all<{ position: number | string; type: string; recorded_at: string; actor: string; project_id: string | null; summary: string }>(
      `SELECT position, type, recorded_at, actor, project_id, summary FROM dh_timeline
       WHERE device_uuid = $1 AND position > $2${ownOnly} ORDER BY position LIMIT $3`,
      args,
    );
    const entries: TimelineEntry[] = rows.slice(0, limit).map((row) => ({
      position: Number(row.position),
      type: row.type,
      recordedAt: row.recorded_at,
      actor: row.actor,
      projectId: row.project_id,
      summary: row.summary,
    }));
    return { entries, next: rows.length > limit ? entries[entries.length - 1].position : null };
  }
}

function tenancyView(row: TenancyRow): TenancyView {
  return {
    deviceUuid: row.device_uuid,
    deployableUuid: row.deployable_uuid,
    attachHandleUuid: row.attach_handle_uuid,
    region: row.region,
    arqUuid: row.arq_uuid,
    instanceUuid: row.instance_uuid,
    projectId: row.project_id,
    deviceProfile: row.device_profile_uuid ? { uuid: row.device_profile_uuid, name: row.device_profile_name ?? '' } : null,
    bitstreamId: row.bitstream_id,
    from: { position: Number(row.from_position), time: row.from_time },
    to: row.to_position === null ? null : { position: Number(row.to_position), time: row.to_time ?? '' },
  };
}
