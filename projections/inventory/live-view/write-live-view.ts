import type { SqlExecutor } from '@ledger/processing';
import { MultiRowUpsert } from '../multi-row';
import { HOST_LIVENESS_COLUMNS, HOST_TELEMETRY_HISTORY_COLUMNS, type HostLivenessRow, type HostTelemetryHistoryRow, type HostTelemetryRow } from './live-view.rows';

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

/** The host's later heartbeat wins, whichever replica flushes last. */
const upsertTelemetry = new MultiRowUpsert<{ hostname: string; heartbeat_ms: number; devices: string }>(
  'inv_host_telemetry',
  'hostname',
  ['hostname', 'heartbeat_ms', 'devices'],
  'DO UPDATE SET heartbeat_ms = excluded.heartbeat_ms, devices = excluded.devices WHERE excluded.heartbeat_ms >= inv_host_telemetry.heartbeat_ms',
);

/** A step's row is written once: the first sample a replica kept of the step stays (another replica's of the same step is no better). */
const insertHistory = new MultiRowUpsert<HostTelemetryHistoryRow>('inv_host_telemetry_history', ['hostname', 'step_ms'], HOST_TELEMETRY_HISTORY_COLUMNS, 'DO NOTHING');

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

/** Samples kept for the history (see keptSamples), and the window whose older steps are dropped. */
export interface KeptTelemetry {
  readonly rows: readonly HostTelemetryHistoryRow[];
  readonly window: TelemetryHistoryWindow;
}

/**
 * A heartbeat's samples as the history row of its step: one row for the
 * host's devices, not one per device (eight rows, each in three indexes,
 * were most of a heartbeat's cost at 60 s heartbeats and 60 s steps).
 */
export const keptSamples = (row: HostTelemetryRow, stepMs: number): HostTelemetryHistoryRow => ({
  hostname: row.hostname,
  step_ms: stepOf(row.heartbeat_ms, stepMs),
  heartbeat_ms: row.heartbeat_ms,
  devices: JSON.stringify(row.devices),
});

/**
 * Writes a batch of live-view rows: a few multi-row statements, whatever the
 * number of heartbeats behind them; a heartbeat is a liveness row and a
 * telemetry row, and its samples become history rows only when it is the
 * first of its step that the writer kept. Steps older than the window are
 * dropped.
 */
export async function writeLiveView(
  tx: SqlExecutor,
  hosts: readonly HostLivenessRow[],
  telemetry: readonly HostTelemetryRow[],
  history?: KeptTelemetry,
  rule: LivenessRule = DEFAULT_LIVENESS_RULE,
): Promise<void> {
  await upsertHosts.run(
    tx,
    hosts.map((row) => ({ ...row, lost_after_ms: lostAfterMs(row, rule) })),
  );
  await upsertTelemetry.run(
    tx,
    telemetry.map((row) => ({ hostname: row.hostname, heartbeat_ms: row.heartbeat_ms, devices: JSON.stringify(row.devices) })),
  );
  if (history === undefined || history.window.keepMs === 0) return;
  await insertHistory.run(tx, history.rows);
  await tx.run('DELETE FROM inv_host_telemetry_history WHERE step_ms < $1', [stepOf(history.window.nowMs - history.window.keepMs, history.window.stepMs)]);
}
