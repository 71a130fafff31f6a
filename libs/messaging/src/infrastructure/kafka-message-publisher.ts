import { type Kafka, KafkaJSError, KafkaJSProtocolError, type Producer, Partitioners } from 'kafkajs';
import { MessageBrokerUnavailableError, MessageRejectedError } from '../application/message-publisher.errors';
import type { MessagePublisher, OutgoingMessage } from '../application/message-publisher.port';
import { type KafkaClientOptions, kafkaClient } from './kafka-client';

/** Every in-sync replica acknowledged: what "the broker acknowledged" means for the relay's checkpoint. */
const ALL_IN_SYNC_REPLICAS = -1;

/**
 * One produce request per `publish`. A request that timed out may still sit
 * in the broker's socket, and a broker that stopped answering appends it when
 * it goes on, so every retry kafkajs made inside a send (a producer inherits
 * the client's two) would be one more copy of the batch. The caller's backoff
 * retries instead, on a fresh connection, which sends nothing until the
 * broker answers it again (docs/kafka.md, "How many copies").
 */
const NO_PRODUCE_RETRIES = { retries: 0 };

/**
 * The publisher on Kafka (kafkajs). Keys are partitioned like the Java
 * client's default (murmur2), so a key lands on the partition other clients
 * expect. One request in flight at a time: without an idempotent producer,
 * a retried request could otherwise overtake the next and reorder a key.
 * A failed send is not retried here (NO_PRODUCE_RETRIES): the batch reaches
 * the broker at most once per `publish`.
 */
export class KafkaMessagePublisher implements MessagePublisher {
  private readonly kafka: Kafka;
  private producer: Producer | undefined;
  private connecting: Promise<Producer> | undefined;

  constructor(options: KafkaClientOptions) {
    this.kafka = kafkaClient(options);
  }

  async publish(messages: readonly OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const producer = await this.connected();
    try {
      await producer.sendBatch({ acks: ALL_IN_SYNC_REPLICAS, topicMessages: kafkaTopicMessages(messages) });
    } catch (error) {
      throw await this.failure(error);
    }
  }

  async close(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    this.connecting = undefined;
    await producer?.disconnect();
  }

  private connected(): Promise<Producer> {
    this.connecting ??= (async () => {
      const producer = this.kafka.producer({
        createPartitioner: Partitioners.DefaultPartitioner,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: true,
        retry: NO_PRODUCE_RETRIES,
      });
      try {
        await producer.connect();
      } catch (error) {
        this.connecting = undefined;
        throw new MessageBrokerUnavailableError((error as Error).message);
      }
      this.producer = producer;
      return producer;
    })();
    return this.connecting;
  }

  /** Retriable and connection failures mean "down": the next publish starts from a fresh connection. */
  private async failure(error: unknown): Promise<Error> {
    const message = (error as Error).message ?? String(error);
    if (error instanceof KafkaJSError && !refusedByBroker(error)) {
      await this.close().catch(() => undefined);
      return new MessageBrokerUnavailableError(message);
    }
    return new MessageRejectedError(message);
  }
}

/** A protocol error the broker answered and will answer again (message too large, invalid topic…). */
function refusedByBroker(error: KafkaJSError): boolean {
  const protocol = error instanceof KafkaJSProtocolError ? error : error.cause instanceof KafkaJSProtocolError ? error.cause : undefined;
  return protocol !== undefined && !protocol.retriable;
}

/** kafkajs' `topicMessages`: one entry per topic, each topic's messages in the batch's order. */
export function kafkaTopicMessages(messages: readonly OutgoingMessage[]) {
  const topics = new Map<string, { key: string; value: string; headers: Record<string, string> }[]>();
  for (const message of messages) {
    const list = topics.get(message.topic) ?? [];
    list.push({ key: message.key, value: message.value, headers: { ...message.headers } });
    topics.set(message.topic, list);
  }
  return [...topics].map(([topic, list]) => ({ topic, messages: list }));
}
