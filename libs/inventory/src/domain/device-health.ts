/** How an agent judges a device: `ok`, `degraded` (works, with errors) or `failed` (unusable). */
export const DEVICE_HEALTH_LEVELS = ['ok', 'degraded', 'failed'] as const;
export type DeviceHealth = (typeof DEVICE_HEALTH_LEVELS)[number];

/** The longest `healthReason` accepted (e.g. "ECC double-bit errors", "Xid 79"). */
export const MAX_HEALTH_REASON_LENGTH = 255;

export const isDeviceHealth = (value: unknown): value is DeviceHealth => (DEVICE_HEALTH_LEVELS as readonly unknown[]).includes(value);

/** The health last recorded on a device's stream. */
export interface DeviceHealthRecord {
  readonly health: DeviceHealth;
  readonly reason: string | null;
  /** When the ledger received the heartbeat that reported it (ISO-8601). */
  readonly observedAt: string;
}
