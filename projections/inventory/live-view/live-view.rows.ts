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

/** A device's part of a host's heartbeat. */
export interface DeviceTelemetrySample {
  device_uuid: string;
  pci_address: string;
  health: string;
  health_reason: string | null;
  telemetry: Readonly<Record<string, number>>;
}

/**
 * A host's last heartbeat's devices, one row per host (`devices` is stored as
 * JSON): a heartbeat writes one row here, not one per device.
 */
export interface HostTelemetryRow {
  hostname: string;
  heartbeat_ms: number;
  devices: readonly DeviceTelemetrySample[];
}

/**
 * A host's samples kept for their history: the first heartbeat a replica
 * received in the step that starts at `step_ms`, its devices as one JSON
 * array (DeviceTelemetrySample[]), as inv_host_telemetry keeps the last.
 */
export interface HostTelemetryHistoryRow {
  hostname: string;
  step_ms: number;
  heartbeat_ms: number;
  devices: string;
}

export const HOST_LIVENESS_COLUMNS: readonly (keyof HostLivenessRow)[] = ['hostname', 'last_seen_ms', 'heartbeat_ms', 'interval_ms', 'agent_version'];

export const HOST_TELEMETRY_HISTORY_COLUMNS: readonly (keyof HostTelemetryHistoryRow)[] = ['hostname', 'step_ms', 'heartbeat_ms', 'devices'];

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
