import { EventStoreDBClient } from '@eventstore/db-client';
import { readEsdbChainHead } from './esdb-chain-head';
import { EsdbEventStore } from './esdb-event-store';

export interface EsdbEventStoreOptions {
  /** `esdb://host:2113?tls=false` or a cluster connection string. */
  readonly connectionString: string;
}

/** Connects and reads the chain head. Run one writing process per cluster (see EsdbEventStore). */
export async function openEsdbEventStore(options: EsdbEventStoreOptions): Promise<EsdbEventStore> {
  const client = EventStoreDBClient.connectionString(options.connectionString);
  try {
    return new EsdbEventStore(client, await readEsdbChainHead(client));
  } catch (error) {
    await client.dispose();
    throw error;
  }
}
