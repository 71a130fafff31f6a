import { renameSync, writeFileSync } from 'node:fs';
import { contextTopic, parseEventEnvelope } from '@ledger/contracts';
import { KafkaMessageSource } from '@ledger/messaging';
import { openSqliteSqlDatabase } from '@ledger/processing';
import { loadConsumerSettings } from './consumer-settings';
import { InventoryReplica, type ReplicaProgress } from './inventory-replica';
import { QuietFlusher } from './quiet-flusher';

/** More than the topic's partitions (4 on the mock cluster), so every partition's batch waits for the same flush. */
const CONCURRENT_PARTITIONS = 64;

/**
 * An example of another service consuming the ledger's Kafka topics
 * (docs/kafka.md): it rebuilds the inventory read model from
 * `<prefix>.inventory.v1`, deduplicating by event id.
 * Run: `npm run kafka-consumer-example` with LEDGER_KAFKA_BROKERS set.
 */
async function main(): Promise<void> {
  const settings = loadConsumerSettings();
  const db = await openSqliteSqlDatabase({ file: settings.dbFile });
  const replica = await InventoryReplica.open(db);
  const writeState = async (progress: ReplicaProgress): Promise<void> => {
    if (!settings.stateFile) return;
    const partial = `${settings.stateFile}.partial`;
    writeFileSync(partial, JSON.stringify({ ...progress, inventory: await replica.snapshot() }));
    renameSync(partial, settings.stateFile);
  };
  const flusher = new QuietFlusher(settings.quietMs, async () => {
    const progress = await replica.flush();
    await writeState(progress);
    process.stdout.write(`${JSON.stringify(progress)}\n`);
  });
  const topic = contextTopic(settings.kafka.topicPrefix, 'inventory');
  const source = new KafkaMessageSource({
    brokers: settings.kafka.brokers,
    clientId: 'kafka-consumer-example',
    groupId: settings.groupId,
    topics: [topic],
    concurrentPartitions: CONCURRENT_PARTITIONS,
  });
  await writeState(await replica.flush());
  await source.start(async (messages) => {
    replica.receive(messages.map((message) => parseEventEnvelope(message.value)));
    await flusher.arrived();
  });
  process.stderr.write(`kafka-consumer-example: rebuilding the inventory from ${topic} as group ${settings.groupId}\n`);
  const stop = async (): Promise<void> => {
    flusher.stop();
    await source.stop();
    await db.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`kafka-consumer-example: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
