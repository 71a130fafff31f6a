import { decodePageCursor, encodePageCursor, pageLimitOf } from '@ledger/kernel';
import { QuotaErrorCodes, type QuotaResources, QuotaInvalidError } from '@ledger/quota';
import type { SqlExecutor } from '@ledger/processing';

/** One project's limits and usage as projected. */
export interface QuotaProjectView {
  readonly project: string;
  readonly limits: QuotaResources;
  readonly usage: QuotaResources;
}

export interface ReservationView {
  readonly project: string;
  readonly consumerId: string;
  readonly resources: QuotaResources;
  /** When the reservation was recorded (ISO-8601). */
  readonly reservedAt: string;
}

export interface ReservationFilter {
  /** Only reservations recorded strictly before this ISO-8601 time. */
  readonly reservedBefore?: string;
  /** 1–10000, default 1000. */
  readonly limit?: number;
}

/** A page of projects by name: `limit` 1–1000 (default 100) and the `nextCursor` of the previous page. */
export interface ProjectPageRequest {
  readonly limit?: number;
  readonly cursor?: string;
}

export interface QuotaProjectPage {
  readonly items: QuotaProjectView[];
  readonly nextCursor: string | null;
}

export const DEFAULT_RESERVATION_LIMIT = 1000;
export const MAX_RESERVATION_LIMIT = 10_000;

/** Reads of the quota read model. */
export class QuotaQueries {
  constructor(private readonly db: SqlExecutor) {}

  /** A project never touched has no limits and no usage. */
  async getProject(project: string): Promise<QuotaProjectView> {
    const limits = await this.db.all<{ resource: string; limit_value: number | string }>(
      'SELECT resource, limit_value FROM quota_limits WHERE project = $1 ORDER BY resource',
      [project],
    );
    const usage = await this.db.all<{ resource: string; used: number | string }>(
      'SELECT resource, used FROM quota_usage WHERE project = $1 AND used > 0 ORDER BY resource',
      [project],
    );
    return {
      project,
      limits: Object.fromEntries(limits.map((row) => [row.resource, Number(row.limit_value)])),
      usage: Object.fromEntries(usage.map((row) => [row.resource, Number(row.used)])),
    };
  }

  /** Projects with a limit set or something in use, by name, each with its limits and usage (an operator's list to pick from). */
  async listProjects(request: ProjectPageRequest = {}): Promise<QuotaProjectPage> {
    const limit = pageLimitOf(request.limit, QuotaErrorCodes.INVALID);
    const after = decodePageCursor(request.cursor, 1, QuotaErrorCodes.INVALID)?.[0];
    const names = await this.db.all<{ project: string }>(
      `SELECT project FROM (SELECT project FROM quota_limits UNION SELECT project FROM quota_usage WHERE used > 0) p
        ${after === undefined ? '' : 'WHERE project > $1'} ORDER BY project LIMIT ${limit + 1}`,
      after === undefined ? [] : [after],
    );
    const items = await Promise.all(names.slice(0, limit).map((row) => this.getProject(row.project)));
    return { items, nextCursor: names.length > limit ? encodePageCursor([items[items.length - 1].project]) : null };
  }

  /** Every project's limit and usage per resource that has either, for metrics (null: no limit set, or nothing used). */
  async usageAndLimits(): Promise<{ project: string; resource: string; used: number; limit: number | null }[]> {
    const rows = await this.db.all<{ project: string; resource: string; used: number | string | null; limit_value: number | string | null }>(
      `SELECT u.project, u.resource, u.used, l.limit_value FROM quota_usage u
         LEFT JOIN quota_limits l ON l.project = u.project AND l.resource = u.resource
       UNION ALL
       SELECT l.project, l.resource, NULL, l.limit_value FROM quota_limits l
        WHERE NOT EXISTS (SELECT 1 FROM quota_usage u WHERE u.project = l.project AND u.resource = l.resource)`,
    );
    return rows.map((row) => ({
      project: row.project,
      resource: row.resource,
      used: Number(row.used ?? 0),
      limit: row.limit_value === null ? null : Number(row.limit_value),
    }));
  }

  /** Oldest first (then by project and consumer), for a sweeper of reservations whose request never got recorded. */
  async listReservations(filter: ReservationFilter = {}): Promise<ReservationView[]> {
    const limit = filter.limit ?? DEFAULT_RESERVATION_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RESERVATION_LIMIT) {
      throw new QuotaInvalidError('limit', `must be an integer from 1 to ${MAX_RESERVATION_LIMIT}`, limit);
    }
    const before = filter.reservedBefore === undefined ? undefined : isoTime(filter.reservedBefore);
    const rows = await this.db.all<{ project: string; consumer_id: string; resources: string; reserved_at: string }>(
      `SELECT project, consumer_id, resources, reserved_at FROM quota_reservations
       ${before === undefined ? '' : 'WHERE reserved_at < $1'}
       ORDER BY reserved_at, project, consumer_id LIMIT ${limit}`,
      before === undefined ? [] : [before],
    );
    return rows.map((row) => ({
      project: row.project,
      consumerId: row.consumer_id,
      resources: JSON.parse(row.resources) as QuotaResources,
      reservedAt: row.reserved_at,
    }));
  }
}

/** The store writes times as `toISOString()`; comparing TEXT needs the argument in the same form. */
function isoTime(value: string): string {
  const time = new Date(value);
  if (typeof value !== 'string' || Number.isNaN(time.getTime())) throw new QuotaInvalidError('reservedBefore', 'must be an ISO-8601 time', value);
  return time.toISOString();
}
