import type { RecordedEvent } from '@ledger/eventstore';
import type { HostDriverEvent } from '@ledger/inventory';
import type { JobEvent } from '@ledger/jobs';
import { canonicalJson } from '@ledger/kernel';
import type { DriverRow, JobRow } from './jobs.rows';

type Projected = RecordedEvent & (JobEvent | HostDriverEvent);

/**
 * One batch applied in memory to the rows it touches, then written back with
 * a multi-row upsert per table. An event at or below its row's
 * `stream_version` was applied before and changes nothing.
 */
export class JobsBatch {
  readonly jobs: Map<string, JobRow>;
  readonly drivers: Map<string, DriverRow>;
  readonly changedJobs = new Set<string>();
  readonly changedDrivers = new Set<string>();

  constructor(jobs: readonly JobRow[], drivers: readonly DriverRow[]) {
    this.jobs = new Map(jobs.map((row) => [row.job_id, row]));
    this.drivers = new Map(drivers.map((row) => [driverKey(row.hostname, row.driver), row]));
  }

  apply(recorded: RecordedEvent): void {
    const event = recorded as Projected;
    if (event.type.startsWith('jobs.')) this.applyJobEvent(event as RecordedEvent & JobEvent);
    else this.applyDriverEvent(event as RecordedEvent & HostDriverEvent);
  }

  private applyJobEvent(event: RecordedEvent & JobEvent): void {
    const row = this.jobs.get(event.data.jobId);
    if (event.type === 'jobs.JobRequested') {
      if (row) return;
      const { jobId, hostname, kind, params, timeoutSeconds, requestedAt } = event.data;
      this.putJob({
        job_id: jobId,
        hostname,
        kind,
        params: canonicalJson(params),
        timeout_seconds: timeoutSeconds,
        state: 'requested',
        attempt: 0,
        agent_boot: null,
        requested_at: requestedAt,
        deadline: new Date(Date.parse(requestedAt) + timeoutSeconds * 1000).toISOString(),
        requested_position: event.position,
        dispatched_at: null,
        finished_at: null,
        code: null,
        reason: null,
        evidence: null,
        driver_fact: 0,
        stream_version: event.version,
      });
      return;
    }
    if (!row || event.version <= row.stream_version) return;
    row.stream_version = event.version;
    switch (event.type) {
      case 'jobs.JobDispatched':
        Object.assign(row, { state: 'dispatched', attempt: event.data.attempt, agent_boot: event.data.agentBoot, dispatched_at: event.data.dispatchedAt });
        break;
      case 'jobs.JobCompleted':
        Object.assign(row, { state: 'completed', finished_at: event.data.completedAt, evidence: canonicalJson(event.data.evidence) });
        break;
      case 'jobs.JobFailed': {
        const { code, reason, evidence, failedAt } = event.data;
        Object.assign(row, { state: 'failed', finished_at: failedAt, code, reason, evidence: canonicalJson(evidence) });
        break;
      }
    }
    this.putJob(row);
  }

  private applyDriverEvent(event: RecordedEvent & HostDriverEvent): void {
    const { hostname, driver, jobId, recap } = event.data;
    const key = driverKey(hostname, driver);
    const row = this.drivers.get(key);
    if (row && event.version <= row.stream_version) return;
    const base: DriverRow = row ?? { hostname, driver, status: 'failed', version: null, installed_at: null, recap: null, last_job_id: jobId, last_failure: null, updated_at: event.recordedAt, stream_version: 0 };
    const next: DriverRow = { ...base, recap: recap === null ? null : canonicalJson(recap), last_job_id: jobId, updated_at: event.recordedAt, stream_version: event.version };
    switch (event.type) {
      case 'inventory.DriverInstalled':
        Object.assign(next, { status: 'installed', version: event.data.version, installed_at: event.recordedAt, last_failure: null });
        break;
      case 'inventory.DriverUninstalled':
        Object.assign(next, { status: 'uninstalled', version: null, installed_at: null, last_failure: null });
        break;
      case 'inventory.DriverFailed':
        // A failed update or uninstall leaves what was installed (the playbook restores it); a failed install leaves nothing.
        next.status = base.status === 'installed' ? 'installed' : 'failed';
        next.last_failure = canonicalJson({ operation: event.data.operation, reason: event.data.reason, failedAt: event.recordedAt });
        break;
    }
    this.drivers.set(key, next);
    this.changedDrivers.add(key);
    const job = this.jobs.get(jobId);
    if (job && job.driver_fact === 0) {
      job.driver_fact = 1;
      this.putJob(job);
    }
  }

  private putJob(row: JobRow): void {
    this.jobs.set(row.job_id, row);
    this.changedJobs.add(row.job_id);
  }
}

// NUL occurs in neither host names nor driver names, so the pair is unambiguous.
export const driverKey = (hostname: string, driver: string): string => `${hostname}\u0000${driver}`;
