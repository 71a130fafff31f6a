import { AsOfBeyondHeadError, type LogPoint, type PlacedLog, positionAtTime } from '@ledger/processing';
import type { ResolvedPoint } from './usage-window';

/** The time of position 0, before the first event. */
export const LOG_START_TIME = new Date(0).toISOString();

/**
 * Resolves a point as docs/audit.md says: a time means the last event
 * recorded at or before it (`positionAtTime`, as `?asOf=` and tenancy
 * ranges resolve it) and keeps its own time as the window's edge; a
 * position keeps the time its event was recorded at.
 */
export async function resolveLogPoint(log: PlacedLog, point: LogPoint): Promise<ResolvedPoint> {
  if ('time' in point) return { position: await positionAtTime(log, point.time), time: point.time };
  const head = await log.headPosition();
  if (point.position > head) throw new AsOfBeyondHeadError(point.position, head);
  const [event] = point.position === 0 ? [] : (await log.readAll({ after: point.position - 1, max: 1 })).events;
  return { position: point.position, time: event?.recordedAt ?? LOG_START_TIME };
}

/** Notes every event's position and time during one pass over an export (which has no random access), then reads like the store. */
export class NotedPositionTimes implements PlacedLog {
  private readonly positions: number[] = [];
  private readonly times: string[] = [];

  note(event: { readonly position: number; readonly recordedAt: string }): void {
    this.positions.push(event.position);
    this.times.push(event.recordedAt);
  }

  async headPosition(): Promise<number> {
    return this.positions.at(-1) ?? 0;
  }

  async readAll({ after, max }: { after: number; max: number }): Promise<{ events: { position: number; recordedAt: string }[] }> {
    let low = 0;
    let high = this.positions.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.positions[middle] <= after) low = middle + 1;
      else high = middle;
    }
    const events: { position: number; recordedAt: string }[] = [];
    for (let index = low; index < Math.min(this.positions.length, low + max); index++) events.push({ position: this.positions[index], recordedAt: this.times[index] });
    return { events };
  }
}
