import type { LogContext } from '@ledger/kernel';
import type { RecordedEvent } from './envelope';

/** The ids a processor logs while it works on `event`: the request's correlation id travels on. */
export function eventLogContext(event: Pick<RecordedEvent, 'id' | 'metadata'>): LogContext {
  return { correlationId: event.metadata.correlationId, eventId: event.id };
}
