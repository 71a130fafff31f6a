import type { SqlExecutor } from '@ledger/processing';
import { MultiRowUpsert } from '../multi-row';
import { DEVICE_TELEMETRY_COLUMNS, type DeviceTelemetryRow, HOST_LIVENESS_COLUMNS, type HostLivenessRow } from './live-view.rows';

/** The later of two values of a column, by the time column `at` (a NULL time loses). */
const newer = (column: string, at: string) =>
  `${column} = CASE WHEN excluded.${at} > COALESCE(inv_host_liveness.${at}, -1) THEN excluded.${column} ELSE inv_host_liveness.${column} END`;

/**
 * Replicas flush independently, so an older row may arrive after a newer
 * one: each column keeps the later value, never the last written.
 */
const upsertHosts = new MultiRowUpsert<HostLivenessRow>(
  'inv_host_liveness',
  'hostname',
  HOST_LIVENESS_COLUMNS,
  `DO UPDATE SET ${[
    newer('last_seen_ms', 'last_seen_ms'),
    newer('interval_ms', 'heartbeat_ms'),
    newer('agent_version', 'heartbeat_ms'),
    newer('heartbeat_ms', 'heartbeat_ms'),
  ].join(', ')}`,
);

const upsertDevices = new MultiRowUpsert<DeviceTelemetryRow>(
  'inv_device_telemetry',
  'device_uuid',
  DEVICE_TELEMETRY_COLUMNS,
  `DO UPDATE SET ${DEVICE_TELEMETRY_COLUMNS.filter((column) => column !== 'device_uuid')
    .map((column) => `${column} = excluded.${column}`)
    .join(', ')} WHERE excluded.heartbeat_ms >= inv_device_telemetry.heartbeat_ms`,
);

/** Writes a batch of live-view rows: a few multi-row statements, whatever the number of heartbeats behind them. */
export async function writeLiveView(tx: SqlExecutor, hosts: readonly HostLivenessRow[], devices: readonly DeviceTelemetryRow[]): Promise<void> {
  await upsertHosts.run(tx, hosts);
  await upsertDevices.run(tx, devices);
}
