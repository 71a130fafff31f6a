import { randomBytes } from 'node:crypto';
import { type Actor, uuidV7 } from '@ledger/kernel';
import type { EventMetadata, NewEvent, RecordedEvent } from '../../envelope';
import type { EventFilter, EventStore } from '../../event-store.port';

export const contractActor: Actor = { user: 'contract-tester', project: 'project-1', roles: ['admin', 'member'] };

export function metadata(overrides: Partial<EventMetadata> = {}): EventMetadata {
  return { correlationId: uuidV7(), causationId: null, actor: contractActor, schemaVersion: 1, ...overrides };
}

export function newEvent(type = 'test.Happened', data: unknown = {}, overrides: Partial<NewEvent> = {}): NewEvent {
  return { type, data, metadata: metadata(), ...overrides };
}

/**
 * A category no other test (or earlier run against a persistent server)
 * has used, so filters and counts only see this test's events.
 */
export const uniqueCategory = (prefix = 'c'): string => `${prefix}${randomBytes(6).toString('hex')}`;

export const uniqueStream = (category = uniqueCategory()): string => `${category}-${uuidV7()}`;

/** Every event after `after`, read in batches until the reader stops moving. */
export async function readAllAfter(store: EventStore, after: number, filter?: EventFilter, max = 100): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (;;) {
    const page = await store.readAll({ after, max, filter });
    events.push(...page.events);
    if (page.position === after) return events;
    after = page.position;
  }
}

/** Pulls batches until at least `count` events arrived (or the subscription ended). */
export async function take(iterator: AsyncIterator<RecordedEvent[]>, count: number): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  while (events.length < count) {
    const next = await iterator.next();
    if (next.done) break;
    events.push(...next.value);
  }
  return events;
}

export const positionsOf = (events: readonly RecordedEvent[]): number[] => events.map((event) => event.position);

/** `count` consecutive positions after `base`. */
export const positionsAfter = (base: number, count: number): number[] => Array.from({ length: count }, (_, index) => base + index + 1);

/**
 * Waits until readers of the global log can see `position`. A store may keep
 * a committed event from readers while an older transaction could still
 * commit before it (PostgreSQL's gap safety), so even a writer's own
 * acknowledged append can take a moment to show in readAll and headPosition.
 */
export async function untilVisible(store: EventStore, position: number): Promise<void> {
  while ((await store.headPosition()) < position) await store.waitForAppend(50);
}

/**
 * Appends one event and returns its position: the position a test can count
 * from without relying on what readers see yet. Two probes around an
 * operation show whether it took any position.
 */
export async function probe(store: EventStore): Promise<number> {
  return (await store.append(uniqueStream(uniqueCategory('probe')), [newEvent('test.Probed')], { expected: 'no_stream' })).position;
}
