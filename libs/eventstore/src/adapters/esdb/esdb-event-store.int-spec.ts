import { describeEventStoreContract } from '@ledger/eventstore/testing';
import { openEsdbEventStore } from './open-esdb-event-store';

/**
 * No EventStoreDB runs on our machines (DESIGN.md), so this contract run is
 * opt-in: set ESDB_CONNECTION_STRING (e.g. `esdb://127.0.0.1:2113?tls=false`)
 * to run it. Unlike services we do provide, its absence is not a CI failure.
 * The server keeps its events between runs; the contract measures from the
 * head it finds and uses fresh streams.
 */
const connectionString = process.env.ESDB_CONNECTION_STRING;

if (!connectionString) {
  process.stderr.write('\n[skip] EventStoreDB: ESDB_CONNECTION_STRING is not set, so the ESDB contract run is skipped\n');
}

describeEventStoreContract(
  'EventStoreDB',
  async () => {
    const store = await openEsdbEventStore({ connectionString: connectionString as string });
    return { store, cleanup: () => store.close() };
  },
  connectionString ? describe : describe.skip,
  { multiStreamAppend: false },
);
