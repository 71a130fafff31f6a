import { streamCategory, type RecordedEvent } from '../envelope';
import type { EventFilter } from '../event-store.port';

/** The in-memory form of a readAll filter, for sources that are not a database (exports, ESDB). */
export function matchesFilter(event: Pick<RecordedEvent, 'stream' | 'type'>, filter: EventFilter | undefined): boolean {
  if (!filter) return true;
  if (filter.types && !filter.types.includes(event.type)) return false;
  if (filter.categories && !filter.categories.includes(streamCategory(event.stream))) return false;
  return true;
}
