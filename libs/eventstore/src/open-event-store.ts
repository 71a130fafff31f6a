import type { EsdbEventStoreOptions } from './adapters/esdb/open-esdb-event-store';
import type { PostgresEventStoreOptions } from './adapters/postgres/open-postgres-event-store';
import type { SqliteEventStoreOptions } from './adapters/sqlite/open-sqlite-event-store';
import type { EventStore } from './event-store.port';

/** Which store to open, and where. */
export type OpenEventStoreOptions =
  | ({ readonly kind: 'sqlite' } & SqliteEventStoreOptions)
  | ({ readonly kind: 'postgres' } & PostgresEventStoreOptions)
  | ({ readonly kind: 'esdb' } & EsdbEventStoreOptions);

/**
 * Opens the configured adapter. Each adapter is loaded only when chosen, so
 * the embedded setup never loads the PostgreSQL or gRPC clients.
 */
export async function openEventStore(options: OpenEventStoreOptions): Promise<EventStore> {
  switch (options.kind) {
    case 'sqlite':
      return (await import('./adapters/sqlite/open-sqlite-event-store')).openSqliteEventStore(options);
    case 'postgres':
      return (await import('./adapters/postgres/open-postgres-event-store')).openPostgresEventStore(options);
    case 'esdb':
      return (await import('./adapters/esdb/open-esdb-event-store')).openEsdbEventStore(options);
    default:
      throw new Error(`unknown event store kind "${(options as { kind: unknown }).kind}": expected sqlite, postgres or esdb`);
  }
}
