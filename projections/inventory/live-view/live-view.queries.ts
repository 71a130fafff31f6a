import type { SqlExecutor } from '@ledger/processing';
import {
  type AgentStatus,
  agentStatusOf,
  type DeviceTelemetrySeries,
  type DeviceTelemetryView,
  type HostTelemetryView,
  isoOfMs,
  type OverdueHost,
} from './live-view.views';
import type { DeviceTelemetrySample } from './live-view.rows';

type Row = Record<string, unknown>;

/** Whose kept telemetry to read (one device, or every device of a host), from `sinceMs` on. */
export type TelemetryHistoryQuery = ({ readonly deviceUuid: string } | { readonly hostname: string }) & { readonly sinceMs: number };

export interface OverdueQuery {
  readonly nowMs: number;
  /** Hosts count as seen at least at this time: the monitor's start, so a restart is a grace period, not a mass loss. */
  readonly seenNoEarlierThanMs: number;
  /** A host is overdue after this many of its heartbeat intervals without a sighting. */
  readonly lostAfterIntervals: number;
  /** The interval of a host that has not heartbeated yet. */
  readonly defaultIntervalMs: number;
}

/** Reads of the agents' live view. */
export class LiveViewQueries {
  constructor(private readonly db: SqlExecutor) {}

  /** The host's last heartbeat and sighting; undefined when the host never reported. */
  async hostTelemetry(hostname: string): Promise<HostTelemetryView | undefined> {
    const host = await this.db.get<Row>(
      `SELECT h.hostname, h.agent_lost_at, l.last_seen_ms, l.heartbeat_ms, l.interval_ms, l.agent_version, t.heartbeat_ms AS devices_ms, t.devices
         FROM inv_hosts h LEFT JOIN inv_host_liveness l ON l.hostname = h.hostname LEFT JOIN inv_host_telemetry t ON t.hostname = h.hostname
        WHERE h.hostname = $1`,
      [hostname],
    );
    if (!host) return undefined;
    // The devices of the host's last heartbeat: another replica's flush of it may not have arrived yet.
    const samples = host.devices == null || Number(host.devices_ms) !== Number(host.heartbeat_ms) ? [] : (JSON.parse(host.devices as string) as DeviceTelemetrySample[]);
    const devices = samples.map((sample) => toDeviceTelemetryView(sample, Number(host.devices_ms))).sort((a, b) => (a.pciAddress < b.pciAddress ? -1 : a.pciAddress > b.pciAddress ? 1 : 0));
    return {
      hostname,
      lastSeenAt: isoOfMs(host.last_seen_ms),
      agentVersion: (host.agent_version as string | null) ?? null,
      intervalSeconds: host.interval_ms === null || host.interval_ms === undefined ? null : Number(host.interval_ms) / 1000,
      status: agentStatusOf(host.agent_lost_at, host.last_seen_ms),
      devices,
    };
  }

  /**
   * A device's or a host's devices' kept telemetry (LEDGER_TELEMETRY_HISTORY_MINUTES), oldest sample first,
   * devices by uuid. History is kept per host: a device's is read from the host the inventory has it on now.
   */
  async telemetryHistory(query: TelemetryHistoryQuery): Promise<DeviceTelemetrySeries[]> {
    const deviceUuid = 'deviceUuid' in query ? query.deviceUuid.toLowerCase() : undefined;
    const hostname = deviceUuid === undefined ? (query as { hostname: string }).hostname : await this.hostOfDevice(deviceUuid);
    if (hostname === undefined) return [];
    const rows = await this.db.all<Row>('SELECT heartbeat_ms, devices FROM inv_host_telemetry_history WHERE hostname = $1 AND step_ms >= $2 ORDER BY step_ms', [
      hostname,
      query.sinceMs,
    ]);
    const series = new Map<string, { deviceUuid: string; hostname: string; samples: { at: string; telemetry: Record<string, number> }[] }>();
    for (const row of rows) {
      for (const device of JSON.parse(row.devices as string) as DeviceTelemetrySample[]) {
        if (deviceUuid !== undefined && device.device_uuid.toLowerCase() !== deviceUuid) continue;
        const one = series.get(device.device_uuid) ?? { deviceUuid: device.device_uuid, hostname, samples: [] };
        one.samples.push({ at: isoOfMs(row.heartbeat_ms)!, telemetry: device.telemetry as Record<string, number> });
        series.set(device.device_uuid, one);
      }
    }
    return [...series.values()].sort((a, b) => (a.deviceUuid < b.deviceUuid ? -1 : a.deviceUuid > b.deviceUuid ? 1 : 0));
  }

  /** The host the inventory has a device on now. */
  private async hostOfDevice(deviceUuid: string): Promise<string | undefined> {
    const row = await this.db.get<Row>('SELECT hostname FROM inv_devices WHERE uuid = $1', [deviceUuid]);
    return typeof row?.hostname === 'string' ? row.hostname : undefined;
  }

  /**
   * Registered hosts per agent status, for metrics, by agentStatusOf's rule:
   * one pass over the hosts with a lookup of each one's sighting (counted
   * in SQL, not grouped: grouping by the status sorts every row and costs
   * half as much again with 10,000 hosts).
   */
  async agentCounts(): Promise<Record<AgentStatus, number>> {
    const row = await this.db.get<Row>(
      `SELECT COUNT(*) AS hosts, COUNT(h.agent_lost_at) AS lost, COUNT(CASE WHEN h.agent_lost_at IS NULL THEN l.last_seen_ms END) AS up
         FROM inv_hosts h LEFT JOIN inv_host_liveness l ON l.hostname = h.hostname`,
    );
    const [hosts, lost, up] = [Number(row?.hosts ?? 0), Number(row?.lost ?? 0), Number(row?.up ?? 0)];
    return { up, lost, unknown: hosts - lost - up };
  }

  /** Hosts whose agent was lost at or before `lostNoLaterThan` (ISO-8601), longest lost first. */
  async lostSince(lostNoLaterThan: string): Promise<{ hostname: string; lostAt: string }[]> {
    const rows = await this.db.all<Row>(
      'SELECT hostname, agent_lost_at FROM inv_hosts WHERE agent_lost_at IS NOT NULL AND agent_lost_at <= $1 ORDER BY agent_lost_at, hostname',
      [lostNoLaterThan],
    );
    return rows.map((row) => ({ hostname: row.hostname as string, lostAt: row.agent_lost_at as string }));
  }

  /**
   * Hosts not seen for `lostAfterIntervals` of their intervals, oldest
   * first. Lost hosts stay overdue until they are seen again; the monitor
   * remembers which it has marked. The first condition is the due-time
   * index's (last_seen_ms + lost_after_ms, as the writers computed it), so
   * only hosts past due are read, not every row; the second is the rule
   * itself, with the monitor's start as the earliest sighting.
   */
  async overdueHosts(query: OverdueQuery): Promise<OverdueHost[]> {
    const rows = await this.db.all<Row>(
      `SELECT hostname, last_seen_ms FROM inv_host_liveness
        WHERE last_seen_ms + lost_after_ms < $4
          AND (CASE WHEN last_seen_ms > $1 THEN last_seen_ms ELSE $1 END) + $2 * COALESCE(interval_ms, $3) < $4
        ORDER BY last_seen_ms, hostname`,
      [query.seenNoEarlierThanMs, query.lostAfterIntervals, query.defaultIntervalMs, query.nowMs],
    );
    return rows.map((row) => ({ hostname: row.hostname as string, lastSeenMs: Number(row.last_seen_ms) }));
  }
}

const toDeviceTelemetryView = (sample: DeviceTelemetrySample, heartbeatMs: number): DeviceTelemetryView => ({
  deviceUuid: sample.device_uuid,
  pciAddress: sample.pci_address,
  health: sample.health as DeviceTelemetryView['health'],
  healthReason: sample.health_reason ?? null,
  telemetry: { ...sample.telemetry },
  observedAt: isoOfMs(heartbeatMs)!,
});
