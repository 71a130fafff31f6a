import { openSqliteSqlDatabase, rebuildProcessor, type SqlDatabase } from '@ledger/processing';
import { deviceHistoryProjection, NotedPositionTimes } from '@ledger/projections/device-history';
import { type EventSource, openFileSource } from './event-source';
import { Progress } from './progress';
import { sequentialReader } from './sequential-reader';

/** The device-history read model rebuilt from an export, and every event's position and time noted on the way (for resolving times). */
export interface DeviceHistoryOfExport {
  readonly db: SqlDatabase;
  readonly positions: NotedPositionTimes;
}

/**
 * One pass over an export: rebuilds the device-history projection into an
 * in-memory SQLite, so the live ledger's queries run on it unchanged. The
 * caller closes `db`.
 */
export async function deviceHistoryOfExport(file: string, quiet?: boolean): Promise<DeviceHistoryOfExport> {
  const source = openFileSource(file);
  const positions = new NotedPositionTimes();
  const db = await openSqliteSqlDatabase({ file: ':memory:' });
  const progress = new Progress(`reading ${file}`, undefined, quiet);
  try {
    const result = await rebuildProcessor(sequentialReader(noting(source, positions)), db, deviceHistoryProjection, {
      onProgress: ({ position }) => progress.update(position),
    });
    progress.done(result.position);
    return { db, positions };
  } catch (error) {
    await db.close();
    throw error;
  } finally {
    await source.close();
  }
}

/** The source, noting each event as it passes (before the projection's filter drops most of them). */
function noting(source: EventSource, positions: NotedPositionTimes): EventSource {
  return {
    ...source,
    async *batches() {
      for await (const batch of source.batches()) {
        for (const event of batch) positions.note(event);
        yield batch;
      }
    },
  };
}
