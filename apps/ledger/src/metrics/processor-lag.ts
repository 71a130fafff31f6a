import type { EventStore } from '@ledger/eventstore';

/** A processor as the scrape sees it: its checkpoint key, state and where it stands. */
export interface ProcessorPoint {
  readonly processor: string;
  readonly state: string;
  readonly position: number;
  readonly lag: number;
  /** Reactors only. */
  readonly parked?: number;
}

/**
 * How long each processor has kept its oldest unprocessed event waiting:
 * now minus the recording time of the event after its position (0 when it
 * is caught up). One read of one event per distinct lagging position;
 * processors that keep up share the head and cost none.
 */
export async function lagSeconds(store: Pick<EventStore, 'readAll'>, points: readonly ProcessorPoint[], nowMs: number): Promise<Map<number, number>> {
  const lagging = [...new Set(points.filter((point) => point.lag > 0).map((point) => point.position))];
  const seconds = new Map<number, number>();
  await Promise.all(
    lagging.map(async (position) => {
      const { events } = await store.readAll({ after: position, max: 1 });
      if (events[0]) seconds.set(position, Math.max(0, (nowMs - Date.parse(events[0].recordedAt)) / 1000));
    }),
  );
  return seconds;
}
