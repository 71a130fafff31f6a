import { JobInvalidError } from '@ledger/jobs';
import type { SqlExecutor } from '@ledger/processing';
import { type DriverRow, driverRowFrom, type JobRow, jobRowFrom } from './jobs.rows';
import type { HostDriverView, JobView, Page } from './jobs.views';

export interface JobFilter {
  readonly hostname?: string;
  readonly state?: string;
  readonly kind?: string;
  /** 1–1000, default 100. */
  readonly limit?: number;
  /** `nextCursor` of the previous page. */
  readonly cursor?: string;
}

export const DEFAULT_JOB_PAGE = 100;
export const MAX_JOB_PAGE = 1000;
/** At most this many jobs go out in one long-poll answer. */
export const MAX_OFFERED_JOBS = 16;

const PENDING = "state IN ('requested', 'dispatched')";

/** Reads of the jobs read model. Times are ISO-8601 text, compared as text. */
export class JobQueries {
  constructor(private readonly db: SqlExecutor) {}

  /** Jobs per state and kind, for metrics: one GROUP BY, whatever the history's length. */
  async countsByStateAndKind(): Promise<{ state: string; kind: string; jobs: number }[]> {
    const rows = await this.db.all<{ state: string; kind: string; jobs: number | string }>('SELECT state, kind, COUNT(*) AS jobs FROM jobs GROUP BY state, kind');
    return rows.map((row) => ({ state: row.state, kind: row.kind, jobs: Number(row.jobs) }));
  }

  async getJob(jobId: string): Promise<JobView | undefined> {
    const row = await this.db.get<Record<string, unknown>>('SELECT * FROM jobs WHERE job_id = $1', [jobId.toLowerCase()]);
    return row && toJobView(jobRowFrom(row));
  }

  /** Newest first. */
  async listJobs(filter: JobFilter = {}): Promise<Page<JobView>> {
    const limit = filter.limit ?? DEFAULT_JOB_PAGE;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_JOB_PAGE) throw new JobInvalidError('limit', `must be an integer from 1 to ${MAX_JOB_PAGE}`, limit);
    const conditions: string[] = [];
    const params: unknown[] = [limit + 1];
    const where = (sql: string, value: unknown) => {
      params.push(value);
      conditions.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.hostname !== undefined) where('hostname = ?', filter.hostname);
    if (filter.state !== undefined) where('state = ?', filter.state);
    if (filter.kind !== undefined) where('kind = ?', filter.kind);
    if (filter.cursor !== undefined && filter.cursor !== '') where('requested_position < ?', decodeCursor(filter.cursor));
    const rows = await this.db.all<Record<string, unknown>>(
      `SELECT * FROM jobs ${conditions.length ? `WHERE ${conditions.join(' AND ')}` : ''} ORDER BY requested_position DESC LIMIT $1`,
      params,
    );
    const items = rows.slice(0, limit).map((row) => toJobView(jobRowFrom(row)));
    return { items, nextCursor: rows.length > limit ? encodeCursor(items[items.length - 1].position) : null };
  }

  /**
   * Ids of the jobs a poll of `hostname` may take, oldest first: requested
   * ones, and — for a poll that names its agent boot — dispatched ones that
   * went to another boot (or to a poll that named none). Jobs past their
   * deadline are left to the sweeper.
   */
  async offerable(hostname: string, agentBoot: string | null, now: string, limit = MAX_OFFERED_JOBS): Promise<string[]> {
    const redelivered = agentBoot === null ? '' : " OR (state = 'dispatched' AND (agent_boot IS NULL OR agent_boot <> $4))";
    const rows = await this.db.all<{ job_id: string }>(
      `SELECT job_id FROM jobs WHERE hostname = $1 AND (state = 'requested'${redelivered}) AND deadline > $2
       ORDER BY requested_position LIMIT $3`,
      agentBoot === null ? [hostname, now, limit] : [hostname, now, limit, agentBoot],
    );
    return rows.map((row) => row.job_id);
  }

  /**
   * Jobs queued and not yet taken, for every host that has any (hosts with none are absent): what a
   * replica answers heartbeats' `jobsWaiting` from for a moment. Reads through the (state, deadline)
   * index, so it costs the jobs waiting, not the jobs ever run.
   */
  async countWaitingPerHost(now: Date = new Date()): Promise<Map<string, number>> {
    const rows = await this.db.all<{ hostname: string; waiting: number | string }>(
      `SELECT hostname, COUNT(*) AS waiting FROM jobs WHERE state = 'requested' AND deadline > $1 GROUP BY hostname`,
      [now.toISOString()],
    );
    return new Map(rows.map((row) => [row.hostname, Number(row.waiting)]));
  }

  /** Unfinished jobs whose deadline is at or before `now`, earliest first. */
  async dueForTimeout(now: string, limit: number): Promise<string[]> {
    const rows = await this.db.all<{ job_id: string }>(`SELECT job_id FROM jobs WHERE ${PENDING} AND deadline <= $1 ORDER BY deadline LIMIT $2`, [now, limit]);
    return rows.map((row) => row.job_id);
  }

  /** The earliest deadline of an unfinished job, or null when none waits. */
  async nextDeadline(): Promise<string | null> {
    const row = await this.db.get<{ deadline: string | null }>(`SELECT MIN(deadline) AS deadline FROM jobs WHERE ${PENDING}`);
    return row?.deadline ?? null;
  }

  /** Jobs requested after `position` (in position order): how long polls learn of jobs requested on other replicas. */
  async requestedAfter(position: number, limit: number): Promise<{ hostname: string; position: number }[]> {
    const rows = await this.db.all<{ hostname: string; requested_position: number | string }>(
      'SELECT hostname, requested_position FROM jobs WHERE requested_position > $1 ORDER BY requested_position LIMIT $2',
      [position, limit],
    );
    return rows.map((row) => ({ hostname: row.hostname, position: Number(row.requested_position) }));
  }

  async lastRequestedPosition(): Promise<number> {
    const row = await this.db.get<{ last: number | string | null }>('SELECT MAX(requested_position) AS last FROM jobs');
    return Number(row?.last ?? 0);
  }

  /** What the host's driver jobs installed, and installs that failed; uninstalled drivers are gone. By name. */
  async listHostDrivers(hostname: string): Promise<HostDriverView[]> {
    const rows = await this.db.all<Record<string, unknown>>(
      "SELECT * FROM job_host_drivers WHERE hostname = $1 AND status <> 'uninstalled' ORDER BY driver",
      [hostname],
    );
    return rows.map((row) => toDriverView(driverRowFrom(row)));
  }
}

function toJobView(row: JobRow): JobView {
  return {
    jobId: row.job_id,
    hostname: row.hostname,
    kind: row.kind,
    params: JSON.parse(row.params) as Record<string, unknown>,
    timeoutSeconds: row.timeout_seconds,
    state: row.state as JobView['state'],
    attempt: row.attempt,
    requestedAt: row.requested_at,
    deadline: row.deadline,
    dispatchedAt: row.dispatched_at,
    finishedAt: row.finished_at,
    code: row.code,
    reason: row.reason,
    evidence: row.evidence === null ? null : (JSON.parse(row.evidence) as Record<string, unknown>),
    position: row.requested_position,
  };
}

function toDriverView(row: DriverRow): HostDriverView {
  return {
    driver: row.driver,
    status: row.status as HostDriverView['status'],
    version: row.version,
    installedAt: row.installed_at,
    recap: row.recap === null ? null : (JSON.parse(row.recap) as Record<string, number>),
    lastJobId: row.last_job_id,
    lastFailure: row.last_failure === null ? null : (JSON.parse(row.last_failure) as HostDriverView['lastFailure']),
    updatedAt: row.updated_at,
  };
}

const encodeCursor = (position: number): string => Buffer.from(String(position), 'utf8').toString('base64url');

function decodeCursor(cursor: string): number {
  const position = Number(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!Number.isSafeInteger(position) || position < 1) throw new JobInvalidError('cursor', 'is not one this API issued');
  return position;
}

