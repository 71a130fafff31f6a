/** A host's row of the live view: when it was last seen, and what its last heartbeat said of itself. */
export interface HostLivenessRow {
  hostname: string;
  /** Last report or heartbeat, epoch ms. */
  last_seen_ms: number;
  /** Last heartbeat, epoch ms; null while the host has only reported. */
  heartbeat_ms: number | null;
  interval_ms: number | null;
  agent_version: string | null;
}

/** A device's latest sample, from the heartbeat at `heartbeat_ms`. */
export interface DeviceTelemetryRow {
  device_uuid: string;
  hostname: string;
  pci_address: string;
  health: string;
  health_reason: string | null;
  /** Canonical JSON of `{name: number}`. */
  telemetry: string;
  heartbeat_ms: number;
}

/** A device's sample kept for its history: the last heartbeat of the step that starts at `step_ms`. */
export interface DeviceTelemetryHistoryRow {
  device_uuid: string;
  step_ms: number;
  hostname: string;
  telemetry: string;
  heartbeat_ms: number;
}

export const HOST_LIVENESS_COLUMNS: readonly (keyof HostLivenessRow)[] = ['hostname', 'last_seen_ms', 'heartbeat_ms', 'interval_ms', 'agent_version'];

export const DEVICE_TELEMETRY_COLUMNS: readonly (keyof DeviceTelemetryRow)[] = [
  'device_uuid',
  'hostname',
  'pci_address',
  'health',
  'health_reason',
  'telemetry',
  'heartbeat_ms',
];

export const DEVICE_TELEMETRY_HISTORY_COLUMNS: readonly (keyof DeviceTelemetryHistoryRow)[] = ['device_uuid', 'step_ms', 'hostname', 'telemetry', 'heartbeat_ms'];

/** Two rows of one host written by one process between flushes: the later sighting and the later heartbeat win. */
export function mergeHostLiveness(older: HostLivenessRow, newer: HostLivenessRow): HostLivenessRow {
  const heartbeat = (newer.heartbeat_ms ?? -1) >= (older.heartbeat_ms ?? -1) ? newer : older;
  return {
    hostname: newer.hostname,
    last_seen_ms: Math.max(older.last_seen_ms, newer.last_seen_ms),
    heartbeat_ms: heartbeat.heartbeat_ms,
    interval_ms: heartbeat.interval_ms,
    agent_version: heartbeat.agent_version,
  };
}
