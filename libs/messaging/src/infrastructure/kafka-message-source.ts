import type { Consumer, KafkaMessage } from 'kafkajs';
import type { MessageSource } from '../application/message-source.port';
import type { ReceivedMessage } from '../application/received-message';
import { type KafkaClientOptions, kafkaClient } from './kafka-client';

export interface KafkaMessageSourceOptions extends KafkaClientOptions {
  /** The consumer group: its committed offsets are where a restarted consumer resumes. */
  readonly groupId: string;
  readonly topics: readonly string[];
  /** Where a group with no committed offset starts (default true: the whole history). */
  readonly fromBeginning?: boolean;
  /** How long the group waits for a silent member before rebalancing (default 4000 ms, short enough for tests, DESIGN.md). */
  readonly sessionTimeoutMs?: number;
  /** Partitions whose batches are handed over side by side (default 1: one batch at a time). */
  readonly concurrentPartitions?: number;
}

/** A Kafka consumer group member (kafkajs) behind the MessageSource port. */
export class KafkaMessageSource implements MessageSource {
  private readonly consumer: Consumer;

  constructor(private readonly options: KafkaMessageSourceOptions) {
    const sessionTimeout = options.sessionTimeoutMs ?? 4000;
    this.consumer = kafkaClient(options).consumer({ groupId: options.groupId, sessionTimeout, heartbeatInterval: Math.floor(sessionTimeout / 4) });
  }

  async start(handle: (messages: readonly ReceivedMessage[]) => Promise<void>): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [...this.options.topics], fromBeginning: this.options.fromBeginning ?? true });
    await this.consumer.run({
      partitionsConsumedConcurrently: this.options.concurrentPartitions ?? 1,
      eachBatch: async ({ batch }) => {
        await handle(batch.messages.map((message) => received(batch.topic, batch.partition, message)));
      },
    });
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }
}

function received(topic: string, partition: number, message: KafkaMessage): ReceivedMessage {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers ?? {})) if (value !== undefined) headers[name] = value.toString();
  return { topic, partition, offset: message.offset, key: message.key?.toString() ?? null, value: message.value?.toString() ?? '', headers };
}
