import type { DeviceHealthCause } from '@ledger/inventory';
import type { JobEvidence, JobParams } from '../drivers/accelerator-driver';

/** Shapes of docs/agent-protocol.md, as the agent sends and reads them. */

export interface ReportAnswer {
  readonly hostname: string;
  readonly appended: number;
  readonly position: number | null;
  readonly events: readonly string[];
}

export interface HeartbeatDevice {
  readonly pciAddress: string;
  readonly health: 'ok' | 'degraded' | 'failed';
  readonly healthReason: string | null;
  /** Sent only when the driver said one: a ledger from before health causes refuses the member. */
  readonly cause?: DeviceHealthCause;
  readonly telemetry: Readonly<Record<string, number>>;
}

export interface Heartbeat {
  readonly agentVersion: string;
  readonly intervalSeconds: number;
  readonly devices: readonly HeartbeatDevice[];
}

export interface HeartbeatAnswer {
  readonly hostname: string;
  readonly appended: number;
  readonly position: number | null;
  readonly jobsWaiting: number;
}

/** One job as `GET /hosts/{h}/jobs/next` offers it. */
export interface JobOffer {
  readonly jobId: string;
  readonly kind: string;
  readonly params: JobParams;
  readonly timeoutSeconds: number;
  readonly requestedAt: string;
}

/** The body of `POST /jobs/{id}/result`. */
export type JobResult =
  | { readonly outcome: 'completed'; readonly evidence: JobEvidence }
  | { readonly outcome: 'failed'; readonly evidence: JobEvidence; readonly code: string; readonly reason: string };
