import { AsOfBeyondHeadError, type LogPoint } from '@ledger/processing';
import type { ResolvedPoint } from './usage-window';

/** Where the log's positions and times are read from: the live store, or the positions an export pass noted. */
export interface PositionTimes {
  headPosition(): Promise<number>;
  /** The first event at or after a position, if any. */
  firstAtOrAfter(position: number): Promise<{ readonly position: number; readonly recordedAt: string } | undefined>;
}

/** The time of position 0, before the first event. */
export const LOG_START_TIME = new Date(0).toISOString();

/**
 * Resolves a point as docs/audit.md says: a time means the last event
 * recorded at or before it (binary search, about 20 reads on 1,000,000
 * events; positions are recorded in time order) and keeps its own time as
 * the window's edge; a position keeps the time its event was recorded at.
 */
export async function resolveLogPoint(log: PositionTimes, point: LogPoint): Promise<ResolvedPoint> {
  const head = await log.headPosition();
  if ('position' in point) {
    if (point.position > head) throw new AsOfBeyondHeadError(point.position, head);
    const event = point.position === 0 ? undefined : await log.firstAtOrAfter(point.position);
    return { position: point.position, time: event?.recordedAt ?? LOG_START_TIME };
  }
  let low = 0;
  let high = head;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const event = await log.firstAtOrAfter(middle);
    if (event !== undefined && event.recordedAt <= point.time) low = middle;
    else high = middle - 1;
  }
  return { position: low, time: point.time };
}

/** The live store as PositionTimes. */
export const storePositionTimes = (store: {
  headPosition(): Promise<number>;
  readAll(options: { after: number; max: number }): Promise<{ events: readonly { position: number; recordedAt: string }[] }>;
}): PositionTimes => ({
  headPosition: () => store.headPosition(),
  firstAtOrAfter: async (position) => (await store.readAll({ after: position - 1, max: 1 })).events[0],
});

/** Notes every event's position and time during one pass over an export, then answers as PositionTimes. */
export class NotedPositionTimes implements PositionTimes {
  private readonly positions: number[] = [];
  private readonly times: string[] = [];

  note(event: { readonly position: number; readonly recordedAt: string }): void {
    this.positions.push(event.position);
    this.times.push(event.recordedAt);
  }

  async headPosition(): Promise<number> {
    return this.positions.at(-1) ?? 0;
  }

  async firstAtOrAfter(position: number): Promise<{ position: number; recordedAt: string } | undefined> {
    let low = 0;
    let high = this.positions.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.positions[middle] < position) low = middle + 1;
      else high = middle;
    }
    return low < this.positions.length ? { position: this.positions[low], recordedAt: this.times[low] } : undefined;
  }
}
