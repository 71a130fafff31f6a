import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@ledger/eventstore';
import { eventMessage, KafkaMessagePublisher, kafkaTopicMessages, type OutgoingMessage } from '@ledger/messaging';
import { ReactorRuntime } from '@ledger/processing';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { KAFKA_RELAY_BATCH, kafkaRelayReactor } from '../../../apps/ledger/src/messaging/kafka-relay.reactor';
import { type KafkaMock, kafkaMockUnavailable, startKafkaMock } from '../../support/kafka-mock';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { bestOf, perSecond } from '../measure/statistics';

/** The raw producer sends batches of the relay's size. */
const BATCH = KAFKA_RELAY_BATCH;
const RELAY_TIMEOUT_MS = 600_000;

/**
 * The Kafka relay over the whole inventory log, against librdkafka's mock
 * cluster (started here through kcat), compared with raw kafkajs producing
 * the same events to the same broker in the same run: serialised the same
 * way, batches of the relay's size, one in flight, every replica
 * acknowledging. The difference is what the relay adds: reading the log,
 * the reactor runtime and a checkpoint commit per batch. Each round
 * publishes under a fresh topic prefix, after an untimed message to each of
 * its topics (the mock cluster creates a topic on first use).
 */
export const kafkaRelayBench: BenchModule = {
  records: [
    { name: 'kafka_produce_per_s', unit: 'events/s' },
    { name: 'kafka_relay_per_s', unit: 'events/s', ceiling: 'kafka_produce_per_s' },
  ],
  async run(context, wanted) {
    const missing = kafkaMockUnavailable();
    if (missing !== undefined) {
      context.progress(`kafka_*: SKIPPED, ${missing}`);
      return [];
    }
    const kafka = await startKafkaMock();
    try {
      const { events } = await context.inventoryLog();
      const measurements: Measurement[] = [];
      if (wanted.has('kafka_produce_per_s')) {
        const value = await bestOf(context.sizes.rounds, () => rawProduce(kafka, events));
        context.progress(`kafka_produce_per_s ${Math.round(value)} events/s (${events.length} events)`);
        measurements.push({ name: 'kafka_produce_per_s', value, notes: `kafkajs sendBatch of ${BATCH}, acks all, one in flight` });
      }
      if (wanted.has('kafka_relay_per_s')) {
        const value = await bestOf(context.sizes.rounds, () => relay(context, kafka, events));
        context.progress(`kafka_relay_per_s ${Math.round(value)} events/s`);
        measurements.push({ name: 'kafka_relay_per_s', value, notes: `the relay reactor on ReactorRuntime: batches of ${BATCH}, checkpoint committed per batch` });
      }
      return measurements;
    } finally {
      await kafka.stop();
    }
  },
};

async function rawProduce(kafka: KafkaMock, events: readonly RecordedEvent[]): Promise<number> {
  const prefix = `bench-raw-${randomUUID()}`;
  const producer = new Kafka({ clientId: 'bench-raw', brokers: kafka.brokers, logLevel: logLevel.NOTHING }).producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    maxInFlightRequests: 1,
  });
  await producer.connect();
  try {
    const send = (batch: readonly OutgoingMessage[]) => producer.sendBatch({ acks: -1, topicMessages: kafkaTopicMessages(batch) });
    await send(firstOfEachTopic(events.map((event) => eventMessage(event, prefix))));
    // Serialising is part of producing: timed here as in the relay, which reads the log besides.
    const started = performance.now();
    for (let from = 0; from < events.length; from += BATCH) await send(events.slice(from, from + BATCH).map((event) => eventMessage(event, prefix)));
    return perSecond(events.length, performance.now() - started);
  } finally {
    await producer.disconnect();
  }
}

async function relay(context: BenchContext, kafka: KafkaMock, events: readonly RecordedEvent[]): Promise<number> {
  const { store } = await context.inventoryLog();
  const topicPrefix = `bench-relay-${randomUUID()}`;
  const publisher = new KafkaMessagePublisher({ brokers: kafka.brokers, clientId: 'bench-relay' });
  await publisher.publish(firstOfEachTopic(events.map((event) => eventMessage(event, topicPrefix))));
  const db = await context.target.openReadModel(`kafka-relay-${randomUUID().slice(0, 8)}`);
  const runtime = new ReactorRuntime({ store, db, reactors: [kafkaRelayReactor({ publisher, topicPrefix })], owner: 'bench' });
  try {
    const started = performance.now();
    await runtime.start();
    await runtime.waitForPosition(events.at(-1)!.position, { timeoutMs: RELAY_TIMEOUT_MS });
    return perSecond(events.length, performance.now() - started);
  } finally {
    await runtime.stop();
    await publisher.close();
    await db.close();
  }
}

/** One message per topic, untimed: the mock cluster creates a topic on its first message. */
function firstOfEachTopic(messages: readonly OutgoingMessage[]): OutgoingMessage[] {
  const first = new Map<string, OutgoingMessage>();
  for (const message of messages) if (!first.has(message.topic)) first.set(message.topic, message);
  return [...first.values()];
}
