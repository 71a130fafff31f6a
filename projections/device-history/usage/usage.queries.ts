import type { DeviceHealthCause } from '@ledger/inventory';
import type { LogPoint, SqlExecutor } from '@ledger/processing';
import type { ProjectScope } from '../device-history.queries';
import type { HeldInterval } from './held-interval';
import type { UsageWindow } from './usage-window';

interface HeldRow {
  device_uuid: string;
  project_id: string | null;
  resource_class: string | null;
  from_position: number | string;
  from_time: string;
  to_position: number | string | null;
  to_time: string | null;
  memory_gib: number | string | null;
}

interface HealthRow {
  project_id: string | null;
  device_uuid: string;
  arq_uuid: string;
  health: string;
  reason: string | null;
  cause: string | null;
  effect: string;
  policy_version: string | null;
  position: number | string;
  recorded_at: string;
}

/** One health report of a device while a project held it. */
export interface HealthTenancy {
  readonly projectId: string | null;
  readonly deviceUuid: string;
  readonly arqUuid: string;
  readonly health: string;
  readonly reason: string | null;
  /** The cause the agent reported (null: none said), the health policy's effect, and the policy's version (null before policies). */
  readonly cause: DeviceHealthCause | null;
  readonly effect: string;
  readonly policyVersion: string | null;
  readonly position: number;
  readonly recordedAt: string;
}

export interface HealthQuestion {
  readonly from?: LogPoint;
  readonly to?: LogPoint;
  /** The reported reason to match exactly; without it, any report that is not `ok`. */
  readonly cause?: string;
  /** Only reports of this cause kind (`xid`, `ecc`…). */
  readonly causeKind?: string;
  /** Only this device: who held it when it failed. */
  readonly device?: string;
}

/**
 * Usage accounting's reads of the device-history projection. The same SQL
 * runs on the live read model and on one rebuilt from an export, so a
 * report recomputed offline reads the same rows.
 */
export class UsageQueries {
  constructor(private readonly db: SqlExecutor) {}

  /** Tenancies claimed by `to.position` and not released before `from.time` (the fold clips them). */
  async heldIntervals(window: UsageWindow, scope: ProjectScope): Promise<HeldInterval[]> {
    const args: unknown[] = [window.to.position, window.from.time];
    const own = 'project' in scope ? ` AND project_id = $${args.push(scope.project)}` : '';
    const rows = await this.db.all<HeldRow>(
      `SELECT device_uuid, project_id, resource_class, from_position, from_time, to_position, to_time, memory_gib FROM dh_tenancies
       WHERE from_position <= $1 AND (to_position IS NULL OR to_position > $1 OR to_time > $2)${own} ORDER BY from_position`,
      args,
    );
    return rows.map((row) => ({
      deviceUuid: row.device_uuid,
      projectId: row.project_id,
      resourceClass: row.resource_class,
      fromPosition: Number(row.from_position),
      fromTime: row.from_time,
      toPosition: row.to_position === null ? null : Number(row.to_position),
      toTime: row.to_time,
      capacity: { memoryGiB: row.memory_gib === null ? null : Number(row.memory_gib), migSlices: null },
    }));
  }

  /**
   * Health beside tenancy: every unhealthy report (or every report of one
   * cause) in [from, to) of a device some project held at that moment,
   * with the project and request that held it; oldest first.
   */
  async healthTenancies(question: HealthQuestion, scope: ProjectScope): Promise<HealthTenancy[]> {
    const args: unknown[] = [];
    const where: string[] = [];
    if (question.from) where.push(`${columnOf(question.from)} >= $${args.push(valueOf(question.from))}`);
    if (question.to) where.push(`${columnOf(question.to)} < $${args.push(valueOf(question.to))}`);
    where.push(question.cause === undefined ? `h.health <> 'ok'` : `h.reason = $${args.push(question.cause)}`);
    if (question.causeKind !== undefined) where.push(`h.cause_kind = $${args.push(question.causeKind)}`);
    if (question.device !== undefined) where.push(`h.device_uuid = $${args.push(question.device.toLowerCase())}`);
    if ('project' in scope) where.push(`t.project_id = $${args.push(scope.project)}`);
    const rows = await this.db.all<HealthRow>(
      `SELECT t.project_id, h.device_uuid, t.arq_uuid, h.health, h.reason, h.cause, h.effect, h.policy_version, h.position, h.recorded_at
       FROM dh_health h JOIN dh_tenancies t
         ON t.device_uuid = h.device_uuid AND t.from_position < h.position AND (t.to_position IS NULL OR t.to_position > h.position)
       WHERE ${where.join(' AND ')} ORDER BY h.position, t.from_position`,
      args,
    );
    return rows.map((row) => ({
      projectId: row.project_id,
      deviceUuid: row.device_uuid,
      arqUuid: row.arq_uuid,
      health: row.health,
      reason: row.reason,
      cause: row.cause === null ? null : (JSON.parse(row.cause) as DeviceHealthCause),
      effect: row.effect,
      policyVersion: row.policy_version,
      position: Number(row.position),
      recordedAt: row.recorded_at,
    }));
  }
}

const columnOf = (point: LogPoint): string => ('position' in point ? 'h.position' : 'h.recorded_at');
const valueOf = (point: LogPoint): number | string => ('position' in point ? point.position : point.time);
