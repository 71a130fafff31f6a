import { SYSTEM_ACTOR } from '@ledger/kernel';
import type { EventStore, NewEvent } from '@ledger/eventstore';

/** A new event with test metadata. */
export function testEvent(type: string, data: unknown = {}): NewEvent {
  return { type, data, metadata: { correlationId: 'test', causationId: null, actor: SYSTEM_ACTOR, schemaVersion: 1 } };
}

/**
 * Appends `count` events of `type` spread round-robin over `streams`
 * streams of `category`, in batches; resolves to the last position.
 */
export async function appendSpread(
  store: EventStore,
  options: { count: number; streams: number; category?: string; type?: string; batch?: number },
): Promise<number> {
  const { count, streams, category = 'device', type = 'test.Counted', batch = 1 } = options;
  let position = 0;
  for (let first = 0; first < count; first += batch) {
    const stream = `${category}-${(first / batch) % streams}`;
    const events = Array.from({ length: Math.min(batch, count - first) }, (_, at) => testEvent(type, { n: first + at }));
    position = (await store.append(stream, events, { expected: 'any' })).position;
  }
  return position;
}
