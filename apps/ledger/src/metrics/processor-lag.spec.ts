import type { EventStore, ReadAllOptions, RecordedEvent } from '@ledger/eventstore';
import { lagSeconds, type ProcessorPoint } from './processor-lag';

const NOW = Date.parse('2026-11-27T10:00:00.000Z');

/** A log whose event at position p was recorded p seconds before NOW; counts its reads. */
function logRecordedBackwards() {
  const reads: number[] = [];
  const store: Pick<EventStore, 'readAll'> = {
    readAll: async (options?: ReadAllOptions) => {
      const position = (options?.after ?? 0) + 1;
      reads.push(position);
      const event = { position, recordedAt: new Date(NOW - position * 1000).toISOString() } as RecordedEvent;
      return { events: [event], position };
    },
  };
  return { store, reads };
}

const point = (processor: string, position: number, lag: number): ProcessorPoint => ({ processor, state: 'live', position, lag });

describe('lagSeconds', () => {
  it("is the age of the oldest event each lagging processor has not processed, one read per distinct position", async () => {
    const { store, reads } = logRecordedBackwards();
    const seconds = await lagSeconds(store, [point('inventory', 4, 6), point('jobs', 4, 6), point('reactor:placement', 7, 3), point('quota', 10, 0)], NOW);
    expect(Object.fromEntries(seconds)).toEqual({ 4: 5, 7: 8 });
    expect(reads.sort()).toEqual([5, 8]);
  });

  it('reads nothing when every processor is caught up', async () => {
    const { store, reads } = logRecordedBackwards();
    expect((await lagSeconds(store, [point('inventory', 10, 0)], NOW)).size).toBe(0);
    expect(reads).toEqual([]);
  });
});
