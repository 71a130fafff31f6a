import type { EventStore, RecordedEvent } from '@ledger/eventstore';

/**
 * The chain hash of the log's event at `position`, to store with a
 * checkpoint there or compare with one: taken from `known` (the batch just
 * read) when it holds that event, otherwise read from the store (the
 * filter dropped it). Undefined at position 0 and past the head.
 */
export async function chainHashAt(
  store: Pick<EventStore, 'readAll'>,
  position: number,
  known: readonly RecordedEvent[] = [],
): Promise<string | undefined> {
  if (position <= 0) return undefined;
  const found = findByPosition(known, position);
  if (found) return found.hash;
  const { events } = await store.readAll({ after: position - 1, max: 1 });
  return events[0]?.position === position ? events[0].hash : undefined;
}

/** Binary search: `events` are in position order, and a reactor looks up each event of its batch in turn. */
function findByPosition(events: readonly RecordedEvent[], position: number): RecordedEvent | undefined {
  let low = 0;
  let high = events.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const candidate = events[middle];
    if (candidate.position === position) return candidate;
    if (candidate.position < position) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}
