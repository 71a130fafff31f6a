import type { StreamAppend } from '../../event-store.port';
import { InvalidAppendError } from '../../errors/invalid-append.error';
import { prepareAppend } from './prepare-append';
import type { AtomicAppend } from './prepared-append';

/**
 * Validates an `appendMany` as `prepareAppend` does each of its streams, and
 * what only the whole call can get wrong: no streams, a stream named twice
 * (its second part could only conflict with its first), an event id in two
 * streams. Every event of the call is recorded at the same instant.
 */
export function prepareAppendMany(appends: readonly StreamAppend[]): AtomicAppend {
  if (!Array.isArray(appends) || appends.length === 0) {
    throw new InvalidAppendError('appendMany needs at least one stream');
  }
  const recordedAt = new Date().toISOString();
  const prepared = appends.map((append) => prepareAppend(append?.stream, append?.events, append?.expected, recordedAt));
  const streams = new Set<string>();
  const ids = new Set<string>();
  for (const { stream, events } of prepared) {
    if (streams.has(stream)) throw new InvalidAppendError(`stream ${stream} is named twice in one appendMany`, { stream });
    streams.add(stream);
    for (const { id } of events) {
      if (ids.has(id)) throw new InvalidAppendError(`event id ${id} is used twice in one appendMany`, { stream, id });
      ids.add(id);
    }
  }
  return prepared;
}
