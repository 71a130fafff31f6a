/**
 * Crash-test writer: appends bursts of concurrent appends to the store given
 * as JSON in argv[2] (the options of `openEventStore`), printing each event
 * id on stdout once its append is acknowledged. It never stops on its own:
 * the test SIGKILLs it mid-burst and checks every printed id survived.
 * Run compiled: `node scripts/run.js test/support/append-burst.js '<options>'`.
 */
import { type NewEvent, openEventStore, type OpenEventStoreOptions } from '@ledger/eventstore';
import { SYSTEM_ACTOR, uuidV7 } from '@ledger/kernel';

const APPENDS_PER_BURST = 32;
const STREAMS = 16;

const event = (burst: number, index: number): NewEvent => ({
  id: uuidV7(),
  type: 'test.BurstAppended',
  data: { burst, index },
  metadata: { correlationId: uuidV7(), causationId: null, actor: SYSTEM_ACTOR, schemaVersion: 1 },
});

async function main(): Promise<void> {
  const store = await openEventStore(JSON.parse(process.argv[2]) as OpenEventStoreOptions);
  for (let burst = 0; ; burst++) {
    await Promise.all(
      Array.from({ length: APPENDS_PER_BURST }, async (_, index) => {
        // Every fourth append carries three events, so multi-event appends are crashed too.
        const events = Array.from({ length: index % 4 === 0 ? 3 : 1 }, () => event(burst, index));
        await store.append(`burst-${index % STREAMS}`, events, { expected: 'any' });
        // Writes to a pipe are synchronous on Linux: a printed id was acknowledged before the kill.
        process.stdout.write(events.map((appended) => `${appended.id}\n`).join(''));
      }),
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
