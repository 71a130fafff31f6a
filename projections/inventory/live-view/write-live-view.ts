import type { SqlExecutor } from '@ledger/processing';
import { MultiRowUpsert } from '../multi-row';
import {
  DEVICE_TELEMETRY_COLUMNS,
  DEVICE_TELEMETRY_HISTORY_COLUMNS,
  type DeviceTelemetryHistoryRow,
  type DeviceTelemetryRow,
  HOST_LIVENESS_COLUMNS,
  type HostLivenessRow,
} from './live-view.rows';

/** The later of two values of a column, by the time column `at` (a NULL time loses). */
const newer = (column: string, at: string) =>
  `${column} = CASE WHEN excluded.${at} > COALESCE(inv_host_liveness.${at}, -1) THEN excluded.${column} ELSE inv_host_liveness.${column} END`;

/**
 * Replicas flush independently, so an older row may arrive after a newer
 * one: each column keeps the later value, never the last written.
 */
const upsertHosts = new MultiRowUpsert<HostLivenessRow & { lost_after_ms: number }>(
  'inv_host_liveness',
  'hostname',
  [...HOST_LIVENESS_COLUMNS, 'lost_after_ms'],
  `DO UPDATE SET ${[
    newer('last_seen_ms', 'last_seen_ms'),
    // Follows the interval it is computed from (a sighting carries the default interval's, which does not win).
    newer('lost_after_ms', 'heartbeat_ms'),
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

/** A step's row keeps the step's last heartbeat, whichever replica flushes last. */
const upsertHistory = new MultiRowUpsert<DeviceTelemetryHistoryRow>(
  'inv_device_telemetry_history',
  ['device_uuid', 'step_ms'],
  DEVICE_TELEMETRY_HISTORY_COLUMNS,
  'DO UPDATE SET hostname = excluded.hostname, telemetry = excluded.telemetry, heartbeat_ms = excluded.heartbeat_ms WHERE excluded.heartbeat_ms >= inv_device_telemetry_history.heartbeat_ms',
);

/** When a host counts as lost: LEDGER_AGENT_LOST_AFTER_INTERVALS of its interval, LEDGER_AGENT_HEARTBEAT_SECONDS until it heartbeats. */
export interface LivenessRule {
  readonly lostAfterIntervals: number;
  readonly defaultIntervalMs: number;
}

/** The settings' defaults (docs/configuration.md). */
export const DEFAULT_LIVENESS_RULE: LivenessRule = { lostAfterIntervals: 3, defaultIntervalMs: 15_000 };

/** How long `row`'s host may stay unseen: what the due-time index of inv_host_liveness adds to last_seen_ms. */
export const lostAfterMs = (row: HostLivenessRow, rule: LivenessRule): number => rule.lostAfterIntervals * (row.interval_ms ?? rule.defaultIntervalMs);

/** Rows written before `lost_after_ms` existed get it, once, so the due-time index sees them. */
export async function fillLostAfter(db: SqlExecutor, rule: LivenessRule): Promise<void> {
  await db.run('UPDATE inv_host_liveness SET lost_after_ms = $1 * COALESCE(interval_ms, $2) WHERE lost_after_ms IS NULL', [rule.lostAfterIntervals, rule.defaultIntervalMs]);
}

/** How much telemetry history the live view keeps: `keepMs` back from `nowMs`, one sample per device per `stepMs` (keepMs 0: none). */
export interface TelemetryHistoryWindow {
  readonly stepMs: number;
  readonly keepMs: number;
  readonly nowMs: number;
}

/** The step a heartbeat falls in: the step's start, epoch ms. */
export const stepOf = (heartbeatMs: number, stepMs: number): number => Math.floor(heartbeatMs / stepMs) * stepMs;

/**
 * Writes a batch of live-view rows: a few multi-row statements, whatever the
 * number of heartbeats behind them. With a history window, each sample also
 * becomes its step's row, and steps older than the window are dropped.
 */
export async function writeLiveView(
  tx: SqlExecutor,
  hosts: readonly HostLivenessRow[],
  devices: readonly DeviceTelemetryRow[],
  history?: TelemetryHistoryWindow,
  rule: LivenessRule = DEFAULT_LIVENESS_RULE,
): Promise<void> {
  await upsertHosts.run(
    tx,
    hosts.map((row) => ({ ...row, lost_after_ms: lostAfterMs(row, rule) })),
  );
  await upsertDevices.run(tx, devices);
  if (history === undefined || history.keepMs === 0) return;
  const steps = devices.map((row) => ({
    device_uuid: row.device_uuid,
    step_ms: stepOf(row.heartbeat_ms, history.stepMs),
    hostname: row.hostname,
    telemetry: row.telemetry,
    heartbeat_ms: row.heartbeat_ms,
  }));
  await upsertHistory.run(tx, steps);
  await tx.run('DELETE FROM inv_device_telemetry_history WHERE step_ms < $1', [stepOf(history.nowMs - history.keepMs, history.stepMs)]);
}
