import { BACKWARDS, END, type EventStoreDBClient, StreamNotFoundError } from '@eventstore/db-client';
import { versionOfRevision } from './esdb-revision';

/** A stream's current version (0 when absent): its last event's revision + 1. */
export async function readEsdbStreamVersion(client: EventStoreDBClient, stream: string): Promise<number> {
  try {
    for await (const resolved of client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 })) {
      if (resolved.event) return versionOfRevision(resolved.event.revision);
    }
    return 0;
  } catch (error) {
    if (error instanceof StreamNotFoundError) return 0;
    throw error;
  }
}
