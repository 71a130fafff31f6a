import type { AnsibleRunner } from '../../ansible/ansible-runner';
import { DriverOperationError, type JobEvidence } from '../../drivers/accelerator-driver';
import type { AgentLogger } from '../agent-logger';
import type { HostDiscovery } from '../host-discovery';
import type { JobOffer, JobResult } from '../protocol';
import { isDeviceJobKind, runDeviceJob } from './device-job';
import { isDriverSoftwareJobKind, runDriverSoftwareJob } from './driver-software-job';
import { JOB_FAILURE_CODES, JobFailure } from './job-failure';
import type { ImageSourceOptions } from './program-image';

/** A job that names no (or a nonsensical) timeout still ends. */
const DEFAULT_TIMEOUT_S = 600;

export interface JobRunnerOptions {
  readonly discovery: Pick<HostDiscovery, 'ownerOf' | 'discover' | 'drivers'>;
  readonly ansible: Pick<AnsibleRunner, 'run'>;
  readonly images: ImageSourceOptions;
  readonly playbookDir: string;
  readonly sandboxRoot: string;
  /** A `discover` job also sends a fresh report. */
  readonly reportNow: () => void;
  /**
   * A carve or destroy changes the device's partitions, which the ledger
   * offers from the next report: it is sent once the job's result is
   * delivered. Sent before, the report (a write on every device of the
   * host) would hold the device's stream while the bind waiting on the
   * result tries to claim the new partition.
   */
  readonly reportOnceDelivered: (jobId: string) => void;
  readonly logger: AgentLogger;
}

/**
 * Carries out one job and says how it went, never throwing: the outcome
 * (and the driver's evidence, or the failure's code, reason and the state
 * the device was left in) is what the ledger records. The job's
 * `timeoutSeconds` counts from when the agent starts it; a driver operation
 * still running then is reported failed with JOB.TIMED_OUT and its device
 * state unknown (a playbook is stopped instead, see AnsibleRunner).
 */
export class JobRunner {
  constructor(private readonly options: JobRunnerOptions) {}

  async run(job: JobOffer): Promise<JobResult> {
    const timeoutMs = (Number.isFinite(job.timeoutSeconds) && job.timeoutSeconds > 0 ? job.timeoutSeconds : DEFAULT_TIMEOUT_S) * 1000;
    this.options.logger.log(`job ${job.jobId}: ${job.kind} started (timeout ${timeoutMs / 1000} s)`);
    try {
      const evidence = await this.carryOut(job, timeoutMs);
      this.options.logger.log(`job ${job.jobId}: ${job.kind} completed`);
      return { outcome: 'completed', evidence };
    } catch (error) {
      const result = failedResult(error);
      this.options.logger.warn(`job ${job.jobId}: ${job.kind} failed: ${result.code}: ${result.reason}`);
      return result;
    }
  }

  private async carryOut(job: JobOffer, timeoutMs: number): Promise<JobEvidence> {
    const { discovery, ansible, images, playbookDir, sandboxRoot } = this.options;
    const params = job.params ?? {};
    if (isDriverSoftwareJobKind(job.kind)) {
      return runDriverSoftwareJob(job.kind, params, { drivers: discovery.drivers, playbookDir, sandboxRoot, ansible, timeoutMs });
    }
    if (isDeviceJobKind(job.kind)) {
      const kind = job.kind;
      try {
        return await withTimeout(timeoutMs, (signal) => runDeviceJob(kind, params, { discovery, images, signal }));
      } finally {
        if (kind === 'carve' || kind === 'destroy') this.options.reportOnceDelivered(job.jobId);
      }
    }
    if (job.kind === 'discover') {
      return withTimeout(timeoutMs, async () => {
        const picture = await discovery.discover();
        this.options.reportNow();
        return { devices: picture.devices.length };
      });
    }
    throw new JobFailure(JOB_FAILURE_CODES.unsupported, `this agent does not know jobs of kind "${job.kind}"`, { deviceState: 'unchanged' });
  }
}

async function withTimeout<T>(timeoutMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(
        new JobFailure(JOB_FAILURE_CODES.timedOut, `not finished within ${timeoutMs / 1000} s; the agent stopped waiting`, {
          deviceState: 'unknown: the operation was still running when the job timed out',
        }),
      );
    }, timeoutMs);
  });
  try {
    return await Promise.race([work(controller.signal), expired]);
  } finally {
    clearTimeout(timer);
  }
}

function failedResult(error: unknown): Extract<JobResult, { outcome: 'failed' }> {
  if (error instanceof DriverOperationError) {
    return { outcome: 'failed', code: error.code, reason: error.message, evidence: { ...error.evidence, deviceState: error.deviceState } };
  }
  if (error instanceof JobFailure) return { outcome: 'failed', code: error.code, reason: error.message, evidence: error.evidence };
  return {
    outcome: 'failed',
    code: JOB_FAILURE_CODES.agentError,
    reason: `the driver failed unexpectedly: ${(error as Error)?.message ?? String(error)}`,
    evidence: { deviceState: 'unknown' },
  };
}
