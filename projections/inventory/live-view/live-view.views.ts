/** `lost` after AgentLost until AgentBack; `up` once seen and not lost; `unknown` while never seen since liveness was tracked. */
export type AgentStatus = 'up' | 'lost' | 'unknown';

/** One device's latest sample. */
export interface DeviceTelemetryView {
  readonly deviceUuid: string;
  readonly pciAddress: string;
  readonly health: 'ok' | 'degraded' | 'failed';
  readonly healthReason: string | null;
  readonly telemetry: Record<string, number>;
  /** When the ledger received the heartbeat that carried it. */
  readonly observedAt: string;
}

/** What a host's last heartbeat said (GET /api/v1/hosts/{hostname}/telemetry). */
export interface HostTelemetryView {
  readonly hostname: string;
  readonly lastSeenAt: string | null;
  readonly agentVersion: string | null;
  /** The heartbeat interval the agent announced, null before its first heartbeat. */
  readonly intervalSeconds: number | null;
  readonly status: AgentStatus;
  /** The devices of the last heartbeat that the host reports, by PCI address. */
  readonly devices: DeviceTelemetryView[];
}

/** One device's kept telemetry, oldest first: each sample the last heartbeat of its step. */
export interface DeviceTelemetrySeries {
  readonly deviceUuid: string;
  readonly hostname: string;
  readonly samples: { readonly at: string; readonly telemetry: Record<string, number> }[];
}

/** A host whose agent has been silent too long. */
export interface OverdueHost {
  readonly hostname: string;
  readonly lastSeenMs: number;
}

export const agentStatusOf = (agentLostAt: unknown, lastSeenMs: unknown): AgentStatus =>
  agentLostAt !== null && agentLostAt !== undefined ? 'lost' : lastSeenMs === null || lastSeenMs === undefined ? 'unknown' : 'up';

export const isoOfMs = (ms: unknown): string | null => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString());
