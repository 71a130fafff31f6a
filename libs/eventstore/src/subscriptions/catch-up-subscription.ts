import type { RecordedEvent } from '../envelope';
import type { EventStore, SubscribeOptions, Subscription } from '../event-store.port';

/** How long a live subscription waits for a commit signal before polling anyway. */
const LIVE_POLL_MS = 500;

/**
 * Catch-up-then-live over any store's `readAll` and `waitForAppend`: reads
 * batches after the checkpoint until the log is exhausted, then sleeps until
 * a commit is signalled (or the poll interval passes, for writers in other
 * processes) and reads again. Every adapter uses this one implementation.
 */
export function catchUpSubscription(
  store: Pick<EventStore, 'readAll' | 'waitForAppend'>,
  options: SubscribeOptions = {},
): Subscription {
  const stop = new AbortController();
  let after = options.after ?? 0;
  const batchSize = options.batchSize ?? 1000;

  async function* batches(): AsyncGenerator<RecordedEvent[]> {
    while (!stop.signal.aborted) {
      const { events, position } = await store.readAll({ after, max: batchSize, filter: options.filter });
      const exhausted = position === after;
      after = position;
      if (events.length > 0) yield events;
      if (exhausted) await store.waitForAppend(LIVE_POLL_MS, stop.signal);
    }
  }

  const iterator = batches();
  return {
    [Symbol.asyncIterator]: () => iterator,
    async close() {
      stop.abort();
      await iterator.return(undefined);
    },
  };
}
