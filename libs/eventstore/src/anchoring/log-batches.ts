import type { RecordedEvent } from '../envelope';
import type { EventStore } from '../event-store.port';
import type { StoredEvent } from '../hash-chain/stored-event';

/** Reads batch after batch after position `from` (the start by default), stopping at `head` (events appended later are not the log being read). */
export async function* upToHead<E extends { readonly position: number }>(head: number, read: (after: number) => Promise<E[]>, from = 0): AsyncIterable<E[]> {
  let after = from;
  while (after < head) {
    const events = await read(after);
    if (events.length === 0) break;
    const last = events[events.length - 1].position;
    yield last <= head ? events : events.filter((event) => event.position <= head);
    after = last;
  }
}

/**
 * The store's log up to `head` as the chain check wants it: as stored (data
 * and metadata undecoded) where the store keeps the written text, so the
 * check can hash it without parsing; decoded events elsewhere. `from`: a
 * range of the log, after that position.
 */
export function verifiableBatches(store: EventStore, head: number, batch: number, from = 0): AsyncIterable<ReadonlyArray<RecordedEvent | StoredEvent>> {
  const readStored = store.readAllStored?.bind(store);
  const readDecoded = async (after: number): Promise<RecordedEvent[]> => (await store.readAll({ after, max: batch })).events;
  return upToHead<RecordedEvent | StoredEvent>(head, readStored ? (after) => readStored(after, batch) : readDecoded, from);
}
