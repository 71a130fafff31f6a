import { type EventStore, matchesFilter, type RecordedEvent } from '@ledger/eventstore';
import type { EventSource } from './event-source';

/**
 * Presents a one-pass source (an export file) as the `readAll` of a store,
 * for consumers that read the log forward only, like `rebuildProcessor`.
 * `onScanned` is shown every event read, before the filter, in log order.
 */
export function sequentialReader(source: EventSource, onScanned?: (events: readonly RecordedEvent[]) => void): Pick<EventStore, 'readAll'> {
  const batches = source.batches()[Symbol.asyncIterator]();
  let buffered: RecordedEvent[] = [];
  let exhausted = false;
  return {
    async readAll({ after = 0, max = 1000, filter } = {}) {
      let start = buffered.findIndex((event) => event.position > after);
      while (!exhausted && (start === -1 || buffered.length - start < max)) {
        const next = await batches.next();
        if (next.done) {
          exhausted = true;
        } else {
          buffered = start === -1 ? next.value : [...buffered.slice(start), ...next.value];
          start = buffered.findIndex((event) => event.position > after);
        }
      }
      if (start === -1) {
        buffered = [];
        return { events: [], position: after };
      }
      const scanned = buffered.slice(start, start + max);
      buffered = buffered.slice(start + max);
      onScanned?.(scanned);
      return {
        events: scanned.filter((event) => matchesFilter(event, filter)),
        position: scanned[scanned.length - 1].position,
      };
    },
  };
}
