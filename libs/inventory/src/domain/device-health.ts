import type { DeviceHealthCause } from './health-cause';
import type { HealthEffect, HealthRecovery } from './health-policy';

/** How an agent judges a device: `ok`, `degraded` (works, with errors) or `failed` (unusable). */
export const DEVICE_HEALTH_LEVELS = ['ok', 'degraded', 'failed'] as const;
export type DeviceHealth = (typeof DEVICE_HEALTH_LEVELS)[number];

/** The longest `healthReason` accepted (e.g. "ECC double-bit errors", "Xid 79"). */
export const MAX_HEALTH_REASON_LENGTH = 255;

export const isDeviceHealth = (value: unknown): value is DeviceHealth => (DEVICE_HEALTH_LEVELS as readonly unknown[]).includes(value);

/** How a device came back to `ok`: enough healthy checks in a row, or an operator's clear. */
export type HealthRecoveredBy = { readonly healthyChecks: number } | { readonly operator: string; readonly note: string | null };

/** `inventory.DeviceHealthChanged`'s data as recorded now (schema 2). */
export interface DeviceHealthChangedData {
  readonly deviceUuid: string;
  readonly health: DeviceHealth;
  readonly reason: string | null;
  readonly observedAt: string;
  readonly cause: DeviceHealthCause | null;
  readonly effect: HealthEffect;
  readonly recovery: HealthRecovery | null;
  readonly policyVersion: string | null;
  /** Present on a return to `ok`: how it came back. */
  readonly recoveredBy?: HealthRecoveredBy;
}

/** The health last recorded on a device's stream, and how it is judged; `healthyChecks`: healthy reports in a row since (DeviceHealthCheckPassed), toward `recovery.healthyChecks`. */
export type DeviceHealthRecord = Omit<DeviceHealthChangedData, 'deviceUuid' | 'recoveredBy'> & { readonly healthyChecks: number };

/** Schema 1 recorded a level and a reason only. */
export type DeviceHealthChangedDataV1 = Pick<DeviceHealthChangedData, 'deviceUuid' | 'health' | 'reason' | 'observedAt'>;

/**
 * Schema 1 read as schema 2, as the ledger judged it then: a failed device
 * was not offered (reserve), a degraded one was (watch), and one healthy
 * report brought either back. No policy judged it (`policyVersion` null).
 */
export function upcastDeviceHealthChanged(data: DeviceHealthChangedDataV1 | DeviceHealthChangedData): DeviceHealthChangedData {
  if ('effect' in data && data.effect !== undefined) return data;
  const effect: HealthEffect = data.health === 'failed' ? 'reserve' : data.health === 'degraded' ? 'watch' : 'none';
  return { ...data, cause: null, effect, recovery: data.health === 'ok' ? null : { healthyChecks: 1 }, policyVersion: null };
}
