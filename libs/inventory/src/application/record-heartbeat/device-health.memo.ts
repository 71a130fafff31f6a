import type { DeviceHealth } from '../../domain/device-health';

/** How long a remembered health is trusted before the device's stream is read again. */
export const HEALTH_RECHECK_MS = 5 * 60_000;

/**
 * The health this process last saw recorded per device, so that a heartbeat
 * whose devices are as healthy as before reads no device stream at all.
 * Another replica may record a change meanwhile; an entry is therefore
 * trusted only for HEALTH_RECHECK_MS, which bounds how long such a replica
 * can miss a return to the remembered level. Bounded: least recently
 * remembered entries go first.
 */
export class DeviceHealthMemo {
  private readonly entries = new Map<string, { health: DeviceHealth; checkedAtMs: number }>();

  constructor(
    private readonly capacity = 200_000,
    private readonly recheckMs = HEALTH_RECHECK_MS,
  ) {}

  /** True when `health` is what was recorded, checked less than the recheck time ago. */
  isRecorded(deviceUuid: string, health: DeviceHealth, nowMs: number): boolean {
    const entry = this.entries.get(deviceUuid);
    return entry !== undefined && entry.health === health && nowMs - entry.checkedAtMs < this.recheckMs;
  }

  remember(deviceUuid: string, health: DeviceHealth, nowMs: number): void {
    this.entries.delete(deviceUuid);
    this.entries.set(deviceUuid, { health, checkedAtMs: nowMs });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }
}
